import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, trellisNode } from "./shared";

const answerDataSchema = z.looseObject({ answer: z.string().default("") });

/**
 * answer (advanced-chat): the reply template becomes an end node's `answer` output. Dify also
 * streams answers mid-flow; an answer with outgoing edges becomes a template node instead, since
 * an end node ends the run (the driver tells it which by `hasOutgoing`).
 */
export function answerMapper(hasOutgoing: (nodeId: string) => boolean): NodeMapper {
  return {
    map: (node, context) => {
      const data = readData(answerDataSchema, node, context);
      const answer = context.template(data.answer);
      if (hasOutgoing(node.sourceId)) {
        context.change("An answer in the middle of the flow became a template node: its text is not a run output");
        return { nodes: [trellisNode(node, "template", { template: answer })] };
      }
      return { nodes: [trellisNode(node, "end", { outputs: [{ name: "answer", value: answer }] })] };
    },
    outputPath: (path) => (path[0] === "answer" ? ["text", ...path.slice(1)] : path),
  };
}

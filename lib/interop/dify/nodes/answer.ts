import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, trellisNode } from "./shared";

const answerDataSchema = z.looseObject({ answer: z.string().default("") });

/**
 * answer (advanced-chat): the reply template becomes an end node's `answer` output. Dify also
 * streams answers mid-flow; an answer with outgoing edges, or inside an iteration, becomes a
 * template node instead, since an end node ends the run and cannot be in a body (the driver tells
 * which by `hasOutgoing`).
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
      // Dify streams an answer inside an iteration once per item; an end node cannot be in a body.
      if (node.parentId) {
        context.change(
          "An answer inside an iteration became a template node: Dify streams it once per item; here its text is each item's output, not a run output",
        );
        return { nodes: [trellisNode(node, "template", { template: answer })] };
      }
      return { nodes: [trellisNode(node, "end", { outputs: [{ name: "answer", value: answer }] })] };
    },
    outputPath: (path) => (path[0] === "answer" ? ["text", ...path.slice(1)] : path),
  };
}

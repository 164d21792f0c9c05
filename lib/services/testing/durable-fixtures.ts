import fs from "node:fs";
import type { NodeExecutor } from "../../engine/executor";
import type { WorkflowDocument } from "../../workflow/document";

/** start → t1 … t5 (each a slow template) → end: long enough to kill mid-run. */
export function slowChainDocument(length = 5): WorkflowDocument {
  const ids = Array.from({ length }, (_, index) => `t${index + 1}`);
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
      ...ids.map((id, index) => ({
        id,
        type: "template",
        position: { x: 200 * (index + 1), y: 0 },
        data: { title: id, template: index === 0 ? "1" : `{{${ids[index - 1]}.text}}+1` },
      })),
      {
        id: "end",
        type: "end",
        position: { x: 200 * (length + 1), y: 0 },
        data: { title: "End", outputs: [{ name: "result", value: `{{${ids.at(-1)}.text}}` }] },
      },
    ],
    edges: ["start", ...ids, "end"].slice(1).map((target, index) => ({
      id: `e${index}`,
      source: index === 0 ? "start" : ids[index - 1]!,
      target,
    })),
  };
}

/** start → approval (human input) → summary (template) → end. */
export function approvalDocument(): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
      {
        id: "approval",
        type: "human-input",
        position: { x: 200, y: 0 },
        data: {
          title: "Approval",
          prompt: "Approve the refund?",
          fields: [
            { name: "approved", label: "Approved", type: "boolean", required: true },
            { name: "comment", label: "Comment", type: "text", required: false },
          ],
          fallback: "fail",
        },
      },
      {
        id: "summary",
        type: "template",
        position: { x: 400, y: 0 },
        data: { title: "Summary", template: "approved={{approval.approved}} comment={{approval.comment}}" },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 0 },
        data: { title: "End", outputs: [{ name: "summary", value: "{{summary.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "approval" },
      { id: "e2", source: "approval", target: "summary" },
      { id: "e3", source: "summary", target: "end" },
    ],
  };
}

/**
 * A template executor that takes `delayMs` and appends the node id to `countFile` when it
 * starts, so a test can count executions across processes.
 */
export function countingTemplateExecutor(countFile: string, delayMs: number): NodeExecutor {
  return async (context) => {
    fs.appendFileSync(countFile, `${context.node.id}\n`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(context.signal.reason);
      });
    });
    const template = String((context.node.config as { template?: unknown }).template ?? "");
    return { outputs: { text: context.render(template) } };
  };
}

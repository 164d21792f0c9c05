import type { WorkflowDocument } from "../document";
import { testDocument, testEdge, testNode } from "./build-document";
import { end, start } from "./compile-expectations";

/**
 * Large documents for the compiler's scale test (compile-flow.test.ts) and its benchmark
 * (`npm run bench:compile`): what each must still compile, and how fast, at this size.
 */

/** start → t0 → … → t(count-1) → end, each template reading its predecessor and the start. */
export function chainDocument(count: number): WorkflowDocument {
  const nodes = [start()];
  for (let index = 0; index < count; index++) {
    const previous = index === 0 ? "{{start.query}}" : `{{t${index - 1}.text}} {{start.query}}`;
    nodes.push(testNode(`t${index}`, "template", { template: previous }));
  }
  nodes.push(end(`{{t${count - 1}.text}}`));
  const edges = nodes.slice(1).map((node, index) => testEdge(nodes[index].id, node.id));
  return testDocument(nodes, edges);
}

/**
 * A chain of `count` templates where each also reads the first node and the one halfway back,
 * with an edge from there: many paths into every node, for the reachability checks.
 */
export function fanInDocument(count: number): WorkflowDocument {
  const nodes = [start()];
  const edges: WorkflowDocument["edges"] = [];
  for (let index = 0; index < count; index++) {
    const id = `t${index}`;
    const reads =
      index === 0 ? "{{start.query}}" : `{{t0.text}} {{t${index - 1}.text}} {{t${Math.floor(index / 2)}.text}}`;
    nodes.push(testNode(id, "template", { template: reads }));
    edges.push(testEdge(index === 0 ? "start" : `t${index - 1}`, id));
    if (index > 1) edges.push(testEdge(`t${Math.max(0, Math.floor(index / 2) - 1)}`, id, { id: `x${index}` }));
  }
  const last = `t${count - 1}`;
  nodes.push(end(`{{${last}.text}}`));
  edges.push(testEdge(last, "end"));
  return testDocument(nodes, edges);
}

import { CURRENT_SCHEMA_VERSION, type WorkflowDocument, type WorkflowEdge, type WorkflowNode } from "../document";

/** A node for hand-written test documents; `data.title` defaults to the id. */
export function testNode(
  id: string,
  type: string,
  data: Record<string, unknown> = {},
  extra: Partial<Pick<WorkflowNode, "parentId">> = {},
): WorkflowNode {
  return { id, type, position: { x: 0, y: 0 }, ...extra, data: { title: id, ...data } };
}

/** An edge with a readable default id (`source->target`). */
export function testEdge(
  source: string,
  target: string,
  options: { id?: string; sourceHandle?: string | null; targetHandle?: string | null } = {},
): WorkflowEdge {
  const edge: WorkflowEdge = { id: options.id ?? `${source}->${target}`, source, target };
  if (options.sourceHandle !== undefined) edge.sourceHandle = options.sourceHandle;
  if (options.targetHandle !== undefined) edge.targetHandle = options.targetHandle;
  return edge;
}

/** A current-version document from nodes and edges. */
export function testDocument(nodes: WorkflowNode[], edges: WorkflowEdge[] = []): WorkflowDocument {
  return { schemaVersion: CURRENT_SCHEMA_VERSION, nodes, edges };
}

/** The smallest valid workflow: start (input `query`) → template → end. */
export function minimalDocument(): WorkflowDocument {
  return testDocument(
    [
      testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] }),
      testNode("greet", "template", { template: "Hello {{start.query}}" }),
      testNode("end", "end", { outputs: [{ name: "answer", value: "{{greet.text}}" }] }),
    ],
    [testEdge("start", "greet"), testEdge("greet", "end")],
  );
}

import fc from "fast-check";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument, type WorkflowEdge, type WorkflowNode } from "../document";

/** Node types the generator can place between start and end. */
export const GENERATED_NODE_TYPES = ["template", "code", "condition", "llm", "tool", "http", "iteration"] as const;

/** A node type the generator can place. */
export type GeneratedNodeType = (typeof GENERATED_NODE_TYPES)[number];

/** Knobs for `arbitraryWorkflowDocument`. */
export interface WorkflowArbitraryOptions {
  /** Most nodes between start and end (iteration bodies not counted). Default 12. */
  maxNodes?: number;
  /** Types to draw from. Default: all of GENERATED_NODE_TYPES; engine tests may drop `http`. */
  nodeTypes?: readonly GeneratedNodeType[];
  /** Tool name used by tool nodes, so a test can register it. Default `echo`. */
  toolName?: string;
  /** URL used by http nodes. Default `http://127.0.0.1:9/echo`. */
  httpUrl?: string;
}

/** The random choices behind one generated node. */
interface NodePlan {
  type: GeneratedNodeType;
  parentPicks: number[];
  handlePick: number;
  caseCount: number;
  bodyLength: number;
  parallel: boolean;
}

/** The output field each generated type exposes for downstream templates. */
const READABLE_FIELD: Record<GeneratedNodeType | "start", string> = {
  start: "query",
  template: "text",
  code: "result",
  condition: "branch",
  llm: "text",
  tool: "result",
  http: "body",
  iteration: "output",
};

const position = { x: 0, y: 0 };

function configFor(
  plan: NodePlan,
  nodeId: string,
  reference: string,
  options: Required<WorkflowArbitraryOptions>,
): Record<string, unknown> {
  switch (plan.type) {
    case "template":
      return { template: `Hello {{start.query}} / ${reference}` };
    case "code":
      return { code: "return { result: input };", inputs: [{ name: "input", value: reference }] };
    case "condition":
      return {
        cases: Array.from({ length: plan.caseCount }, (_, index) => ({
          id: `${nodeId}-case-${index}`,
          label: `Case ${index}`,
          logic: "and",
          conditions: [{ left: "{{start.query}}", operator: "contains", right: String.fromCharCode(97 + index) }],
        })),
      };
    case "llm":
      return { userPrompt: `Answer: ${reference}`, systemPrompt: "Be brief." };
    case "tool":
      return { tool: options.toolName, arguments: { text: reference } };
    case "http":
      return { method: "POST", url: options.httpUrl, body: { type: "text", content: reference } };
    case "iteration":
      return {
        input: ["start", "items"],
        parallel: plan.parallel,
        concurrency: 3,
        outputSelector: [`${nodeId}-body-${plan.bodyLength - 1}`, "text"],
      };
  }
}

function portsOf(plan: NodePlan, nodeId: string): string[] {
  if (plan.type !== "condition") return ["out"];
  return [...Array.from({ length: plan.caseCount }, (_, index) => `${nodeId}-case-${index}`), "else"];
}

function buildDocument(plans: readonly NodePlan[], options: Required<WorkflowArbitraryOptions>): WorkflowDocument {
  const nodes: WorkflowNode[] = [
    {
      id: "start",
      type: "start",
      position,
      data: {
        title: "Start",
        inputs: [
          { name: "query", type: "string", required: true },
          { name: "items", type: "array", required: false, default: ["a", "b", "c"] },
        ],
      },
    },
  ];
  const edges: WorkflowEdge[] = [];
  const placed: { id: string; plan?: NodePlan }[] = [{ id: "start" }];
  const hasOutgoing = new Set<string>();
  const connect = (sourceId: string, sourceHandle: string, targetId: string) => {
    edges.push({ id: `e${edges.length}`, source: sourceId, sourceHandle, target: targetId });
    hasOutgoing.add(sourceId);
  };
  const handleFor = (placedIndex: number, pick: number) => {
    const { id, plan } = placed[placedIndex];
    const ports = plan ? portsOf(plan, id) : ["out"];
    return ports[pick % ports.length];
  };

  plans.forEach((plan, planIndex) => {
    const nodeId = `n${planIndex + 1}`;
    const parentIndexes = [...new Set(plan.parentPicks.map((pick) => pick % placed.length))].sort((a, b) => a - b);
    const firstParent = placed[parentIndexes[0]];
    const reference = `{{${firstParent.id}.${READABLE_FIELD[firstParent.plan?.type ?? "start"]}}}`;
    nodes.push({
      id: nodeId,
      type: plan.type,
      position,
      data: { title: nodeId, ...configFor(plan, nodeId, reference, options) },
    });
    for (const parentIndex of parentIndexes)
      connect(placed[parentIndex].id, handleFor(parentIndex, plan.handlePick), nodeId);
    if (plan.type === "iteration") {
      for (let bodyIndex = 0; bodyIndex < plan.bodyLength; bodyIndex++) {
        const bodyId = `${nodeId}-body-${bodyIndex}`;
        const previous = bodyIndex === 0 ? "{{start.query}}" : `{{${nodeId}-body-${bodyIndex - 1}.text}}`;
        nodes.push({
          id: bodyId,
          type: "template",
          parentId: nodeId,
          position,
          data: { title: bodyId, template: `#{{index}} {{item}} ${previous}` },
        });
        if (bodyIndex > 0)
          edges.push({ id: `e${edges.length}`, source: `${nodeId}-body-${bodyIndex - 1}`, target: bodyId });
      }
    }
    placed.push({ id: nodeId, plan });
  });

  const sinks = placed.map((entry, index) => ({ ...entry, index })).filter((entry) => !hasOutgoing.has(entry.id));
  const lastSink = sinks[sinks.length - 1];
  nodes.push({
    id: "end",
    type: "end",
    position,
    data: {
      title: "End",
      outputs: [{ name: "result", value: `{{${lastSink.id}.${READABLE_FIELD[lastSink.plan?.type ?? "start"]}}}` }],
    },
  });
  for (const sink of sinks) connect(sink.id, handleFor(sink.index, 0), "end");
  return { schemaVersion: CURRENT_SCHEMA_VERSION, nodes, edges };
}

/**
 * Valid workflow documents: one start, one end, a random DAG of the chosen node types in between
 * (conditions wired through their case handles, iterations with a chained body), every template
 * reading an upstream field. Every generated document compiles; the compiler tests assert it.
 */
export function arbitraryWorkflowDocument(options: WorkflowArbitraryOptions = {}): fc.Arbitrary<WorkflowDocument> {
  const resolved: Required<WorkflowArbitraryOptions> = {
    maxNodes: options.maxNodes ?? 12,
    nodeTypes: options.nodeTypes ?? GENERATED_NODE_TYPES,
    toolName: options.toolName ?? "echo",
    httpUrl: options.httpUrl ?? "http://127.0.0.1:9/echo",
  };
  const plan: fc.Arbitrary<NodePlan> = fc.record({
    type: fc.constantFrom(...resolved.nodeTypes),
    parentPicks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    handlePick: fc.nat(),
    caseCount: fc.integer({ min: 1, max: 3 }),
    bodyLength: fc.integer({ min: 1, max: 3 }),
    parallel: fc.boolean(),
  });
  return fc.array(plan, { maxLength: resolved.maxNodes }).map((plans) => buildDocument(plans, resolved));
}

/** One random edit that may break a document. */
type Mutation = (document: WorkflowDocument) => WorkflowDocument;

function at<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

function mapNode(
  document: WorkflowDocument,
  pick: number,
  map: (node: WorkflowNode) => WorkflowNode,
): WorkflowDocument {
  const target = at(document.nodes, pick);
  return target ? { ...document, nodes: document.nodes.map((node) => (node === target ? map(node) : node)) } : document;
}

const noisyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("item", "index", "env", "else", "fail", "out", "in", "constructor", "__proto__", "start", "end"),
);

const templateNoise = fc.oneof(
  fc.constantFrom(
    "{{item}}",
    "{{index}}",
    "{{env.KEY}}",
    "{{start.query}}",
    "{{start.nope}}",
    "{{ghost.text}}",
    "{{",
    "}}",
  ),
  fc.tuple(noisyString, noisyString).map(([root, field]) => `{{${root}.${field}}}`),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map(
    (pick): Mutation =>
      (document) => {
        const target = at(document.nodes, pick);
        return { ...document, nodes: document.nodes.filter((node) => node !== target) };
      },
  ),
  fc.nat().map(
    (pick): Mutation =>
      (document) => {
        const target = at(document.edges, pick);
        return { ...document, edges: document.edges.filter((edge) => edge !== target) };
      },
  ),
  fc.tuple(fc.nat(), fc.nat(), fc.option(noisyString, { nil: undefined })).map(
    ([sourcePick, targetPick, handle]): Mutation =>
      (document) => {
        const source = at(document.nodes, sourcePick);
        const target = at(document.nodes, targetPick);
        if (!source || !target) return document;
        const edge: WorkflowEdge = {
          id: `m${document.edges.length}`,
          source: source.id,
          sourceHandle: handle,
          target: target.id,
        };
        return { ...document, edges: [...document.edges, edge] };
      },
  ),
  fc.tuple(fc.nat(), noisyString).map(
    ([pick, type]): Mutation =>
      (document) =>
        mapNode(document, pick, (node) => ({ ...node, type })),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([pick, otherPick]): Mutation =>
      (document) => {
        const other = at(document.nodes, otherPick);
        return other ? mapNode(document, pick, (node) => ({ ...node, id: other.id })) : document;
      },
  ),
  fc.tuple(fc.nat(), fc.option(noisyString, { nil: undefined }), fc.nat()).map(
    ([pick, parentId, otherPick]): Mutation =>
      (document) => {
        const other = at(document.nodes, otherPick);
        const chosen = parentId === undefined ? other?.id : parentId || undefined;
        return mapNode(document, pick, (node) => ({ ...node, parentId: chosen }));
      },
  ),
  fc.tuple(fc.nat(), noisyString, fc.jsonValue({ maxDepth: 2 })).map(
    ([pick, key, value]): Mutation =>
      (document) =>
        mapNode(document, pick, (node) => {
          const keys = Object.keys(node.data).filter((candidate) => candidate !== "title");
          const field = keys.length > 0 && key.length % 2 === 0 ? keys[key.length % keys.length] : key;
          return { ...node, data: { ...node.data, [field]: value } };
        }),
  ),
  fc.tuple(fc.nat(), templateNoise).map(
    ([pick, template]): Mutation =>
      (document) =>
        mapNode(document, pick, (node) => {
          const field = Object.keys(node.data).find((key) => typeof node.data[key] === "string" && key !== "title");
          return field ? { ...node, data: { ...node.data, [field]: template } } : node;
        }),
  ),
  fc.integer({ min: -1, max: 4 }).map(
    (schemaVersion): Mutation =>
      (document) => ({ ...document, schemaVersion }),
  ),
);

/**
 * Valid documents with up to `maxMutations` random edits: removed nodes and edges, stray edges
 * (cycles, crossings, unknown handles), duplicate ids, bogus types, parents and config values,
 * and references to nothing. For "never throws" and "every issue is well formed" properties.
 */
export function arbitraryMutatedWorkflowDocument(
  options: WorkflowArbitraryOptions & { maxMutations?: number } = {},
): fc.Arbitrary<WorkflowDocument> {
  return fc
    .tuple(
      arbitraryWorkflowDocument(options),
      fc.array(mutation, { minLength: 1, maxLength: options.maxMutations ?? 4 }),
    )
    .map(([document, mutations]) => mutations.reduce((current, mutate) => mutate(current), document));
}

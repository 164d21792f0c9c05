import type { CompiledEdge, CompiledNode, CompiledScope, CompiledWorkflow } from "../../workflow/compiled";
import { CURRENT_SCHEMA_VERSION } from "../../workflow/document";
import type { NodeType } from "../../workflow/node-definition";
import { getNodeDefinition } from "../../workflow/nodes";
import { extractPolicy } from "../../workflow/nodes/policy";

/** Extra options of one node added to a `WorkflowBuilder`. */
export interface BuilderNodeOptions {
  /** Container id for iteration body nodes. */
  parentId?: string;
  /** Display title; the id by default. */
  title?: string;
}

/**
 * Builds `CompiledWorkflow`s directly, for engine tests and benchmarks that need shapes the
 * compiler would (rightly) refuse or that must skip compile cost. Configs go through the node
 * definition's zod schema, so defaults and policies are exactly what the compiler produces.
 */
export class WorkflowBuilder {
  private readonly nodes: CompiledNode[] = [];
  private readonly edges: CompiledEdge[] = [];

  /** Adds a node; `config` is parsed by the node type's schema (defaults applied). */
  add(id: string, type: NodeType, config: Record<string, unknown> = {}, options: BuilderNodeOptions = {}): this {
    const definition = getNodeDefinition(type);
    const parsed = definition.configSchema.safeParse(config);
    if (!parsed.success) throw new Error(`Invalid ${type} config for "${id}": ${parsed.error.message}`);
    const parsedConfig = parsed.data as Record<string, unknown>;
    this.nodes.push({
      id,
      type,
      title: options.title ?? id,
      config: parsedConfig,
      policy: extractPolicy(parsedConfig),
      parentId: options.parentId,
      incoming: [],
      outgoing: [],
      outputFields: definition.outputFields(parsedConfig),
    });
    return this;
  }

  /** Connects two nodes; `sourceHandle` defaults to `out`. */
  connect(source: string, target: string, sourceHandle = "out"): this {
    this.edges.push({ id: `${source}->${target}:${sourceHandle}`, source, sourceHandle, target, targetHandle: "in" });
    return this;
  }

  /** Connects the given nodes in a line. */
  chain(...ids: string[]): this {
    for (let index = 1; index < ids.length; index++) this.connect(ids[index - 1], ids[index]);
    return this;
  }

  /** The compiled workflow (scopes: `root` plus one per container). */
  build(): CompiledWorkflow {
    const nodes: Record<string, CompiledNode> = {};
    for (const node of this.nodes) nodes[node.id] = { ...node, incoming: [], outgoing: [] };
    for (const edge of this.edges) {
      const source = nodes[edge.source];
      const target = nodes[edge.target];
      if (!source || !target) throw new Error(`Edge ${edge.id} points at a missing node`);
      source.outgoing.push(edge);
      target.incoming.push(edge);
    }
    const scopes: Record<string, CompiledScope> = { root: { id: "root", nodeIds: [], entryIds: [] } };
    for (const node of this.nodes) {
      if (getNodeDefinition(node.type).isContainer) scopes[node.id] = { id: node.id, nodeIds: [], entryIds: [] };
    }
    for (const node of this.nodes) {
      const scope = scopes[node.parentId ?? "root"];
      if (!scope) throw new Error(`Node "${node.id}" has unknown parent "${node.parentId}"`);
      scope.nodeIds.push(node.id);
    }
    for (const scope of Object.values(scopes)) {
      const members = new Set(scope.nodeIds);
      scope.entryIds = scope.nodeIds.filter((id) => !nodes[id].incoming.some((edge) => members.has(edge.source)));
    }
    const start = this.nodes.find((node) => node.type === "start" && !node.parentId);
    return {
      schemaVersion: CURRENT_SCHEMA_VERSION,
      nodes,
      startNodeId: start?.id ?? this.nodes[0]?.id ?? "",
      scopes,
    };
  }
}

/**
 * A linear chain `start -> t1 -> ... -> tN -> end` of template nodes, for benchmarks and scale
 * tests. By default each template reads its predecessor's text (N distinct templates); with
 * `sharedTemplate` every node renders the same template, so template parsing stays cached at any
 * length and only the engine's own per-node cost grows with N.
 */
export function buildTemplateChain(length: number, options: { sharedTemplate?: boolean } = {}): CompiledWorkflow {
  const builder = new WorkflowBuilder().add("start", "start", { inputs: [{ name: "name", type: "string" }] });
  let previous = "start";
  for (let index = 1; index <= length; index++) {
    const id = `t${index}`;
    const template = index === 1 || options.sharedTemplate ? "Hello {{start.name}}" : `{{t${index - 1}.text}}`;
    builder.add(id, "template", { template });
    builder.connect(previous, id);
    previous = id;
  }
  builder.add("end", "end", { outputs: [{ name: "text", value: `{{${previous}.text}}` }] }).connect(previous, "end");
  return builder.build();
}

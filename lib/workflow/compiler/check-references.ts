import { AncestorOracle } from "../graph/ancestor-oracle";
import type { ValueType, VariableUsage } from "../node-definition";
import type { ConditionConfig } from "../nodes/condition";
import { operatorsForType } from "../nodes/condition-operators";
import type { IterationConfig } from "../nodes/iteration";
import { elementType, isArrayLike, typeAtPath } from "../value-types";
import { parseTemplate, referenceFromSelector, type VariableReference } from "../variables";
import { type CompileContext, flowNodeIds, type NodeEntry, nodeName, predecessorIds, ROOT_SCOPE_ID } from "./context";

/** The outcome of following one reference: its type, or why it is wrong. */
type ReferenceAnalysis = { type: ValueType } | { problem: string };

interface PendingReference {
  nodeId: string;
  reference: VariableReference;
  path: (string | number)[];
}

function referencesOf(usage: VariableUsage): VariableReference[] {
  if ("template" in usage) return [...parseTemplate(usage.template).references];
  const reference = referenceFromSelector(usage.selector);
  return reference ? [reference] : [];
}

/**
 * Checks every `{{...}}` and selector: the node must exist, be upstream (in the same body or
 * upstream of an enclosing container), and output the field. Also checks the types the
 * compiler can know: what an iteration iterates and what a condition compares.
 */
export function checkReferences(context: CompileContext): void {
  const pending: PendingReference[] = [];
  for (const nodeId of flowNodeIds(context)) {
    const { definition, config } = context.nodes.get(nodeId)!;
    if (!definition?.variableUsages || !config) continue;
    for (const usage of definition.variableUsages(config)) {
      for (const reference of referencesOf(usage)) pending.push({ nodeId, reference, path: ["data", ...usage.path] });
    }
  }
  // Only ancestors that are not direct predecessors need a bit: most templates read the node
  // right before them, and the oracle answers those from the edge list.
  const targets = new Set<string>();
  for (const { nodeId, reference } of pending) {
    if (reference.kind !== "node" || !context.nodes.has(reference.root)) continue;
    const query = upstreamQuery(context, reference.root, nodeId);
    if (query && !predecessorIds(context, query.nodeId).includes(reference.root)) targets.add(reference.root);
  }
  const oracle = new AncestorOracle(context.order, (nodeId) => predecessorIds(context, nodeId), targets);
  const analyzer = new ReferenceAnalyzer(context, oracle);

  for (const { nodeId, reference, path } of pending) {
    const analysis = analyzer.analyze(nodeId, reference);
    if ("problem" in analysis) context.report("unknown_variable", analysis.problem, { nodeId, path });
  }
  for (const nodeId of flowNodeIds(context)) {
    const entry = context.nodes.get(nodeId)!;
    if (!entry.config) continue;
    if (entry.node.type === "iteration") checkIteration(context, analyzer, entry, entry.config as IterationConfig);
    if (entry.node.type === "condition") checkCondition(context, analyzer, entry, entry.config as ConditionConfig);
  }
}

/**
 * Reduces "is target visible from node" to one same-scope ancestor question. A node sees its own
 * scope's upstream nodes and, through each enclosing container, everything upstream of it.
 * `false` when the target's scope does not enclose the node at all.
 */
function upstreamQuery(context: CompileContext, targetId: string, nodeId: string): { nodeId: string } | false {
  const targetScope = context.nodes.get(targetId)!.scopeId;
  let current: NodeEntry = context.nodes.get(nodeId)!;
  for (;;) {
    if (current.scopeId === targetScope) return { nodeId: current.node.id };
    if (current.scopeId === ROOT_SCOPE_ID) return false;
    current = context.nodes.get(current.scopeId)!;
  }
}

/** Resolves references to types, memoizing the `item` type per container. */
class ReferenceAnalyzer {
  private readonly itemTypes = new Map<string, ValueType>();

  constructor(
    private readonly context: CompileContext,
    private readonly oracle: AncestorOracle,
  ) {}

  analyze(nodeId: string, reference: VariableReference): ReferenceAnalysis {
    const { text } = reference;
    switch (reference.kind) {
      case "env":
        return reference.path.length === 1 ? { type: "string" } : { problem: `${text}: write {{env.NAME}}` };
      case "index":
        if (this.containerOf(nodeId) === undefined) return { problem: `${text} is only defined inside an iteration` };
        return reference.path.length === 0 ? { type: "number" } : { problem: `${text}: an index has no fields` };
      case "item": {
        const containerId = this.containerOf(nodeId);
        if (containerId === undefined) return { problem: `${text} is only defined inside an iteration` };
        const type = typeAtPath(this.itemType(containerId), reference.path);
        return type ? { type } : { problem: `${text}: the item has no field "${reference.path.join(".")}"` };
      }
      case "node":
        return this.analyzeNodeReference(nodeId, reference);
    }
  }

  private analyzeNodeReference(nodeId: string, reference: VariableReference): ReferenceAnalysis {
    const { root: targetId, text } = reference;
    const target = this.context.nodes.get(targetId);
    if (!target) return { problem: `${text}: there is no node "${targetId}"` };
    if (targetId === nodeId) return { problem: `${text}: a node cannot read its own output` };
    if (!target.inFlow) return { type: "any" };
    const upstream = this.isUpstream(targetId, nodeId);
    if (upstream === false) {
      return {
        problem: `${text}: ${nodeName(this.context, targetId)} does not run before this node; connect it upstream`,
      };
    }
    if (!target.definition || !target.config) return { type: "any" };
    if (reference.path.length === 0) return { type: "object" };
    const [fieldName, ...rest] = reference.path;
    const field = target.definition.outputFields(target.config).find((candidate) => candidate.name === fieldName);
    if (!field) return { problem: `${text}: ${nodeName(this.context, targetId)} has no output "${fieldName}"` };
    const type = typeAtPath(field.type, rest);
    if (!type) return { problem: `${text}: "${fieldName}" is ${field.type}, so it has no "${rest.join(".")}"` };
    return { type };
  }

  /**
   * A node sees its own scope's upstream nodes and, through its container, everything upstream
   * of the container. `undefined` when the order is unknown (a cycle is in the way).
   */
  private isUpstream(targetId: string, nodeId: string): boolean | undefined {
    const query = upstreamQuery(this.context, targetId, nodeId);
    return query ? this.oracle.isAncestor(targetId, query.nodeId) : false;
  }

  private containerOf(nodeId: string): string | undefined {
    const scopeId = this.context.nodes.get(nodeId)!.scopeId;
    return scopeId === ROOT_SCOPE_ID ? undefined : scopeId;
  }

  /** The type of `{{item}}` in a container's body, from the type of what it iterates. */
  itemType(containerId: string): ValueType {
    const known = this.itemTypes.get(containerId);
    if (known) return known;
    // Set first: a container whose input reads its own item must not recurse forever.
    this.itemTypes.set(containerId, "any");
    const config = this.context.nodes.get(containerId)!.config as IterationConfig | undefined;
    const reference = config ? referenceFromSelector(config.input) : undefined;
    if (reference) {
      const analysis = this.analyze(containerId, reference);
      if ("type" in analysis) this.itemTypes.set(containerId, elementType(analysis.type));
    }
    return this.itemTypes.get(containerId)!;
  }

  /** The type a template or selector evaluates to; `any` when it cannot be known. */
  typeOfValue(nodeId: string, value: string | string[]): ValueType {
    if (typeof value === "string") {
      const parsed = parseTemplate(value);
      // A literal has no known type worth checking; mixed text and references is text.
      if (parsed.references.length === 0) return "any";
      if (!parsed.single) return "string";
    }
    const reference = typeof value === "string" ? parseTemplate(value).single : referenceFromSelector(value);
    if (!reference) return "any";
    const analysis = this.analyze(nodeId, reference);
    return "type" in analysis ? analysis.type : "any";
  }
}

function checkIteration(
  context: CompileContext,
  analyzer: ReferenceAnalyzer,
  entry: NodeEntry,
  config: IterationConfig,
) {
  const nodeId = entry.node.id;
  if (config.input.length > 0) {
    const type = analyzer.typeOfValue(nodeId, config.input);
    if (!isArrayLike(type)) {
      context.report("type_mismatch", `An iteration needs an array, but ${config.input.join(".")} is ${type}`, {
        nodeId,
        path: ["data", "input"],
      });
    }
  }
  if (config.outputSelector.length === 0) return;
  const [bodyNodeId, fieldName, ...rest] = config.outputSelector;
  const bodyNode = context.nodes.get(bodyNodeId);
  const location = { nodeId, path: ["data", "outputSelector"] };
  if (!bodyNode || bodyNode.scopeId !== nodeId) {
    context.report(
      "unknown_variable",
      `The output must come from a node inside this iteration, not ${nodeName(context, bodyNodeId)}`,
      location,
    );
    return;
  }
  if (fieldName === undefined || !bodyNode.definition || !bodyNode.config) return;
  const field = bodyNode.definition.outputFields(bodyNode.config).find((candidate) => candidate.name === fieldName);
  if (!field || typeAtPath(field.type, rest) === undefined) {
    context.report(
      "unknown_variable",
      `${nodeName(context, bodyNodeId)} has no output "${[fieldName, ...rest].join(".")}"`,
      location,
    );
  }
}

function checkCondition(
  context: CompileContext,
  analyzer: ReferenceAnalyzer,
  entry: NodeEntry,
  config: ConditionConfig,
) {
  const nodeId = entry.node.id;
  config.cases.forEach((conditionCase, caseIndex) => {
    conditionCase.conditions.forEach((condition, conditionIndex) => {
      if (typeof condition.left === "string" ? condition.left.trim() === "" : condition.left.length === 0) return;
      const type = analyzer.typeOfValue(nodeId, condition.left);
      if (operatorsForType(type).includes(condition.operator)) return;
      context.report("type_mismatch", `"${condition.operator}" does not apply to a ${type} value`, {
        nodeId,
        path: ["data", "cases", caseIndex, "conditions", conditionIndex, "operator"],
      });
    });
  });
}

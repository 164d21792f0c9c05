/*
 * Dify DSL → Trellis document. Node data shapes were taken from Dify's own code:
 *   api/services/app_dsl_service.py                       (envelope, versions, secrets on export)
 *   api/core/app/app_config/entities.py                   (VariableEntity: start variables)
 *   api/core/workflow/nodes/base/entities.py              (VariableSelector, DefaultValue, retry)
 *   api/core/workflow/nodes/{llm,agent,tool,http_request,code,if_else,iteration,template_transform,
 *     variable_aggregator,parameter_extractor,question_classifier,end,answer,human_input}/entities.py
 *   api/core/workflow/utils/condition/entities.py        (if-else conditions)
 *   web/app/components/workflow/types.ts                  (BlockEnum node type strings)
 *   web/app/components/workflow/nodes/if-else/types.ts    (ComparisonOperator; handles = case_id / "false")
 */
import { compileWorkflow } from "../../workflow/compile";
import {
  CURRENT_SCHEMA_VERSION,
  type WorkflowDocument,
  type WorkflowEdge,
  type WorkflowNode,
  workflowDocumentSchema,
} from "../../workflow/document";
import type { StartConfig } from "../../workflow/nodes/start";
import { RESERVED_ROOTS } from "../../workflow/variables";
import { formatPath, ImportFileError } from "../errors";
import {
  type ImportReport,
  type NodeImportEntry,
  type SecretSlot,
  summarize,
  type WorkspaceReference,
} from "../report";
import type { DifyNodeInfo, ImplicitInput, MapContext, NodeMapper, PendingReference } from "./context";
import { answerMapper } from "./nodes/answer";
import { ENTRY_NODE_TYPES, NODE_MAPPERS, UNSUPPORTED_REASONS } from "./nodes/index";
import { DifyNodeDataError } from "./nodes/shared";
import { parseDifyFile } from "./parse";
import { placeHelpers } from "./place-helpers";
import { makePlaceholder } from "./placeholder";
import { mapPolicy } from "./policy";
import { ReferenceResolver } from "./references";
import type { DifyFile } from "./schema";
import { collectNotes, mapVariables } from "./variables";

/** What an import produces before anything is saved. */
export interface DifyImport {
  /** Workflow name (the app's). */
  name: string;
  /** Workflow description (the app's, plus canvas notes). */
  description: string;
  /** The Trellis document. */
  document: WorkflowDocument;
  /** The import report. */
  report: ImportReport;
}

const RESERVED = new Set<string>(RESERVED_ROOTS);
const TESTED_VERSIONS = /^0\.[0-3]\./;

/** Imports a Dify DSL file. Throws only {@link ImportFileError} (with the path), for files that are not workflow exports. */
export function importDifyWorkflow(text: string): DifyImport {
  return mapDifyFile(parseDifyFile(text));
}

/** Maps a parsed file; node-level problems become placeholders, never exceptions. */
export function mapDifyFile(file: DifyFile): DifyImport {
  const graph = file.workflow.graph;
  const notes: string[] = [];
  const entries: NodeImportEntry[] = [];
  const secrets: SecretSlot[] = [];
  const secretValues = new Set<string>();
  const pending: PendingReference[] = [];

  // Pass 1: ids, types, containers.
  const infos: DifyNodeInfo[] = [];
  const idMap = new Map<string, string>();
  const used = new Set<string>();
  const canvasNotes: unknown[] = [];
  graph.nodes.forEach((node, index) => {
    if (node.type === "custom-note" || node.data.type === "") {
      canvasNotes.push(node.data);
      return;
    }
    const type = node.data.type;
    if (type === undefined) {
      throw new ImportFileError(
        "invalid_import",
        formatPath(["workflow", "graph", "nodes", index, "data", "type"]),
        "Every node needs a type",
      );
    }
    const id = uniqueId(node.id, used);
    idMap.set(node.id, id);
    infos.push({
      id,
      sourceId: node.id,
      type,
      data: node.data as Record<string, unknown>,
      index,
      position: node.position ?? { x: 280 * infos.length, y: 0 },
      ...(node.width === undefined ? {} : { width: node.width }),
      ...(node.height === undefined ? {} : { height: node.height }),
    });
  });
  const bySourceId = new Map(infos.map((info) => [info.sourceId, info]));
  graph.nodes.forEach((node) => {
    const info = bySourceId.get(node.id);
    if (!info) return;
    const data = node.data as {
      isInIteration?: unknown;
      iteration_id?: unknown;
      isInLoop?: unknown;
      loop_id?: unknown;
    };
    const parent =
      node.parentId ??
      (data.isInIteration === true && typeof data.iteration_id === "string" ? data.iteration_id : undefined) ??
      (data.isInLoop === true && typeof data.loop_id === "string" ? data.loop_id : undefined);
    if (parent !== undefined) info.parentId = idMap.get(parent) ?? parent;
  });
  notes.push(...collectNotes(canvasNotes));

  // The start node receives sys.* and conversation variables as inputs.
  let startInfo = infos.find((info) => ENTRY_NODE_TYPES.has(info.type));
  const createdStart = startInfo === undefined;
  if (!startInfo) {
    startInfo = {
      id: uniqueId("start", used),
      sourceId: "(none)",
      type: "start",
      data: { title: "Start" },
      index: -1,
      position: { x: -320, y: 0 },
    };
    notes.push("The file has no start node; one was added");
  }
  const variables = mapVariables(file, notes, (slot, value) => {
    secrets.push(slot);
    if (typeof value === "string" && value !== "") secretValues.add(value);
  });
  const implicitInputs = new Map<string, ImplicitInput>();
  const withOutgoing = new Set(graph.edges.map((edge) => edge.source));
  const answer = answerMapper((sourceId) => withOutgoing.has(sourceId));
  const mapperOf = (info: DifyNodeInfo) => (info.type === "answer" ? answer : NODE_MAPPERS[info.type]);
  const resolver = new ReferenceResolver({
    nodesBySourceId: bySourceId,
    outputPath: (info, path) => mapperOf(info)?.outputPath?.(path, info) ?? path,
    startId: startInfo.id,
    conversationVariables: variables.conversation,
    needInput: (input) => implicitInputs.set(input.name, input),
  });

  // Pass 2: nodes.
  const nodes: WorkflowNode[] = [];
  const helperEdges: WorkflowEdge[] = [];
  const placeholders = new Set<string>();
  const absorbed = new Set<string>();
  /** Nodes a mapper added next to the one it mapped (placed off their neighbours at the end). */
  const helperIds = new Set<string>();
  for (const info of infos) {
    const title = typeof info.data.title === "string" ? info.data.title : info.type;
    const changes: string[] = [];
    const entry: NodeImportEntry = {
      nodeId: info.id,
      sourceId: info.sourceId,
      sourceType: info.type,
      title,
      status: "mapped",
      trellisType: "",
      changes,
    };
    entries.push(entry);
    if (info.type === "iteration-start" || info.type === "loop-start") {
      absorbed.add(info.sourceId);
      entry.trellisType = "(none)";
      entry.status = "changed";
      changes.push("Not needed here: the nodes after it are the body's entry");
      continue;
    }
    const context: MapContext = {
      current: info,
      startId: startInfo.id,
      appMode: file.app.mode,
      template: (text) => resolver.template(text, info, (message) => changes.push(message)),
      selector: (selector) => resolver.selector(selector, info, (message) => changes.push(message)),
      change: (message) => changes.push(message),
      secret: (slot) => secrets.push({ ...slot, nodeId: info.id }),
      reference: (kind, name, message) => pending.push({ kind, name, nodeId: info.id, message }),
      helperId: (suffix) => `${info.id}-${suffix}`,
      dataPath: (...segments) => formatPath(["workflow", "graph", "nodes", info.index, "data", ...segments]),
    };
    const mapper = mapperOf(info);
    let produced: WorkflowNode[] = [];
    let unsupported: string | undefined;
    if (!mapper) {
      unsupported = UNSUPPORTED_REASONS[info.type] ?? `Dify node type "${info.type}" has no equivalent here`;
    } else {
      try {
        const result = mapper.map(info, context);
        produced = result.nodes;
        unsupported = result.unsupported;
        if (!unsupported) helperEdges.push(...(result.edges ?? []));
      } catch (error) {
        const detail =
          error instanceof DifyNodeDataError ? error.message : ((error as Error)?.message ?? String(error));
        unsupported = `Its data does not match Dify's ${info.type} node (${detail})`;
        produced = [];
      }
    }
    collectSecretValues(info.data, secretValues);
    if (unsupported) {
      const placeholder = makePlaceholder(info, unsupported, produced[0]);
      placeholders.add(info.id);
      entry.status = "unsupported";
      entry.reason = unsupported;
      entry.trellisType = placeholder.type;
      addDescription(placeholder, info);
      nodes.push(placeholder);
      continue;
    }
    const [main, ...helpers] = produced;
    const { policy, changes: policyChanges } = mapPolicy(info.data);
    changes.push(...policyChanges);
    if (policy.defaultOutput) {
      // Default outputs are keyed by output name, which may differ here (`status_code` → `status`).
      policy.defaultOutput = Object.fromEntries(
        Object.entries(policy.defaultOutput).map(([key, value]) => [
          mapper?.outputPath?.([key], info)[0] ?? key,
          value,
        ]),
      );
    }
    main!.data = { ...main!.data, ...policy };
    addDescription(main!, info);
    entry.trellisType = main!.type;
    nodes.push(main!, ...helpers);
    for (const helper of helpers) helperIds.add(helper.id);
  }
  placeHelpers(nodes, helperIds);
  // Nodes inside an unsupported container (a loop) cannot run there; say so at each of them.
  for (const info of infos) {
    if (info.parentId !== undefined && placeholders.has(info.parentId)) {
      entries
        .find((item) => item.nodeId === info.id)
        ?.changes.push("It sits inside an unsupported container: move it out or replace the container");
    }
  }
  if (createdStart)
    nodes.unshift({
      id: startInfo.id,
      type: "start",
      position: startInfo.position,
      data: { title: "Start", inputs: [] },
    });

  // sys.* and conversation variables the graph reads become start inputs.
  const start = nodes.find((node) => node.id === startInfo.id)!;
  const startInputs = ((start.data as Partial<StartConfig>).inputs ?? []) as Record<string, unknown>[];
  const startEntry = entries.find((entry) => entry.nodeId === startInfo.id);
  for (const input of implicitInputs.values()) {
    if (startInputs.some((existing) => existing.name === input.name)) continue;
    startInputs.push({
      name: input.name,
      type: input.type,
      required: input.name === "query" && file.app.mode === "advanced-chat",
      description: input.description,
      ...(input.default === undefined ? {} : { default: input.default }),
    });
    startEntry?.changes.push(`Added the input "${input.name}" (${input.description})`);
  }
  start.data = { ...start.data, inputs: startInputs };

  const edges = mapEdges(file, idMap, bySourceId, mapperOf, placeholders, absorbed, entries);
  edges.push(...helperEdges);

  for (const entry of entries) if (entry.status === "mapped" && entry.changes.length > 0) entry.status = "changed";
  if (file.version && !TESTED_VERSIONS.test(`${file.version}.`)) {
    notes.push(
      `DSL version ${file.version} is newer than the versions this importer was written against (0.1.x–0.3.x)`,
    );
  }
  const document = scrubDocument({ schemaVersion: CURRENT_SCHEMA_VERSION, nodes, edges }, secretValues, notes);
  const shape = workflowDocumentSchema.safeParse(document);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new ImportFileError("invalid_import", formatPath(["workflow", "graph", ...issue.path]), issue.message);
  }
  const compiled = compileWorkflow(document);
  const description = [file.app.description ?? "", ...notes.filter((note) => note.startsWith("Note: "))]
    .filter((part) => part.trim() !== "")
    .join("\n\n")
    .slice(0, 2000);
  return {
    name: file.app.name.trim().slice(0, 120) || "Imported Dify app",
    description,
    document,
    report: {
      format: "dify",
      source: { name: file.app.name, mode: file.app.mode, ...(file.version ? { version: file.version } : {}) },
      nodes: entries,
      secrets,
      references: groupReferences(pending),
      notes,
      compile: { ok: compiled.ok, issues: compiled.ok ? compiled.warnings : compiled.issues },
      summary: summarize(entries),
    },
  };
}

function uniqueId(sourceId: string, used: Set<string>): string {
  let id = sourceId.replace(/[^A-Za-z0-9_-]/g, "_") || "node";
  if (RESERVED.has(id)) id = `${id}_node`;
  let candidate = id;
  for (let suffix = 2; used.has(candidate); suffix++) candidate = `${id}_${suffix}`;
  used.add(candidate);
  return candidate;
}

function addDescription(node: WorkflowNode, info: DifyNodeInfo): void {
  const description = info.data.desc;
  if (typeof description === "string" && description.trim() !== "") node.data = { ...node.data, description };
}

function mapEdges(
  file: DifyFile,
  idMap: ReadonlyMap<string, string>,
  bySourceId: ReadonlyMap<string, DifyNodeInfo>,
  mapperOf: (info: DifyNodeInfo) => NodeMapper | undefined,
  placeholders: ReadonlySet<string>,
  absorbed: ReadonlySet<string>,
  entries: NodeImportEntry[],
): WorkflowEdge[] {
  const edges: WorkflowEdge[] = [];
  const ids = new Set<string>();
  file.workflow.graph.edges.forEach((edge, index) => {
    if (absorbed.has(edge.source) || absorbed.has(edge.target)) return;
    const source = bySourceId.get(edge.source);
    const handle = edge.sourceHandle ?? "source";
    let sourceId = idMap.get(edge.source) ?? edge.source;
    let sourceHandle = handle === "source" ? "out" : handle === "fail-branch" ? "fail" : handle;
    if (source && placeholders.has(source.id)) {
      if (sourceHandle !== "out") {
        entries
          .find((entry) => entry.nodeId === source.id)
          ?.changes.push(`The edge from its "${handle}" handle now leaves from the placeholder`);
      }
      sourceHandle = "out";
    } else if (source && handle !== "source" && handle !== "fail-branch") {
      const mapped = mapperOf(source)?.sourceHandle?.(handle, source);
      if (mapped) {
        sourceId = mapped.nodeId;
        sourceHandle = mapped.handle;
      }
    }
    const target = bySourceId.get(edge.target);
    const targetId =
      (target && !placeholders.has(target.id) ? mapperOf(target)?.targetNode?.(target) : undefined) ??
      idMap.get(edge.target) ??
      edge.target;
    let id = edge.id && edge.id !== "" ? edge.id : `${sourceId}-${sourceHandle}-${targetId}`;
    if (ids.has(id)) id = `${id}-${index}`;
    ids.add(id);
    edges.push({
      id,
      source: sourceId,
      sourceHandle,
      target: targetId,
      targetHandle: "in",
    });
  });
  return edges;
}

function groupReferences(pending: readonly PendingReference[]): WorkspaceReference[] {
  const byKey = new Map<string, WorkspaceReference>();
  for (const reference of pending) {
    const key = `${reference.kind}:${reference.name}`;
    const existing = byKey.get(key);
    if (existing) {
      if (!existing.nodeIds.includes(reference.nodeId)) existing.nodeIds.push(reference.nodeId);
      continue;
    }
    byKey.set(key, {
      kind: reference.kind,
      name: reference.name,
      nodeIds: [reference.nodeId],
      available: false,
      candidates: [],
      message: reference.message,
    });
  }
  return [...byKey.values()];
}

const CREDENTIAL_FIELDS = new Set(["api_key"]);

/** Values the file holds as secrets (the HTTP API key), to check none reached the document. */
function collectSecretValues(data: Record<string, unknown>, values: Set<string>): void {
  const authorization = data.authorization as { config?: Record<string, unknown> } | undefined;
  for (const field of CREDENTIAL_FIELDS) {
    const value = authorization?.config?.[field];
    if (typeof value === "string" && value.length >= 4 && !value.includes("{{#")) values.add(value);
  }
}

/** Last line of defence: no secret value may appear anywhere in the stored document. */
function scrubDocument(
  document: WorkflowDocument,
  secretValues: ReadonlySet<string>,
  notes: string[],
): WorkflowDocument {
  const values = [...secretValues].filter((value) => value.length >= 4);
  if (values.length === 0) return document;
  const serialized = JSON.stringify(document);
  if (!values.some((value) => serialized.includes(value))) return document;
  notes.push("A secret value from the file appeared in a node's settings and was removed");
  const replace = (value: unknown): unknown => {
    if (typeof value === "string") return values.reduce((text, secret) => text.replaceAll(secret, ""), value);
    if (Array.isArray(value)) return value.map(replace);
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, replace(entry)]));
    return value;
  };
  return replace(document) as WorkflowDocument;
}

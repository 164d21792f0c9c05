import { type ChatBinding, chatBinding } from "../workflow/chat-binding";
import "server-only";
import { listPublishedWorkflows, listWorkflows } from "../db/workflow-repository";
import { endConfigSchema } from "../workflow/nodes/end";
import { type StartConfig, startConfigSchema } from "../workflow/nodes/start";
import { type RunInputsJsonSchema, runInputsJsonSchema } from "../workflow/run-inputs";
import { authorize, can } from "./access/policy";
import type { Principal } from "./access/principal";
import { type PublishedVersion, resolvePublishedVersion } from "./published-api";

/** One declared run input as API clients see it. */
export interface PublishedInput {
  /** The input's name (the key in `inputs`). */
  name: string;
  /** `string`, `number`, `boolean`, `object` or `array`: checked exactly, no coercion. */
  type: StartConfig["inputs"][number]["type"];
  /** Whether a call must send it (false when it has a default). */
  required: boolean;
  /** The author's description, if any. */
  description?: string;
  /** The value used when it is left out, if any. */
  default?: unknown;
}

/** What a caller needs to call a published workflow: its interface at the version served. */
export interface PublishedWorkflowInterface {
  /** Workflow slug: the path segment, the chat `model`, the MCP tool's source. */
  slug: string;
  /** Display name. */
  name: string;
  /** The author's description (may be empty). */
  description: string;
  /** The version calls are served by now. */
  version: number;
  /** Declared run inputs, in the start node's order. */
  inputs: PublishedInput[];
  /** Whether inputs the start node does not declare are accepted. */
  allowExtraInputs: boolean;
  /** The same inputs as a JSON Schema (MCP `inputSchema`, OpenAPI request bodies). */
  inputSchema: RunInputsJsonSchema;
  /** Output names of the end nodes (a run ends on one of them; their union, in document order). */
  outputs: string[];
  /** How chat messages feed it as a chat model (`chatBinding`); null: it takes none (no text input). */
  chat: ChatBinding | null;
}

interface DocumentNode {
  type?: unknown;
  data?: unknown;
}

function documentNodes(document: unknown): DocumentNode[] {
  const nodes = (document as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) ? (nodes as DocumentNode[]) : [];
}

/**
 * The interface of a published document: the start node's declared inputs (parsed with the
 * start node's own schema, so defaults apply as the run input check applies them) and the end
 * nodes' output names. A published version compiled, so an unreadable start node is not expected;
 * it reads as no inputs.
 */
export function describeDocumentInterface(
  document: unknown,
): Pick<PublishedWorkflowInterface, "inputs" | "allowExtraInputs" | "inputSchema" | "outputs" | "chat"> {
  const nodes = documentNodes(document);
  const startData = nodes.find((node) => node.type === "start")?.data ?? {};
  const parsed = startConfigSchema.safeParse(startData);
  const config = parsed.success ? parsed.data : { inputs: [], allowExtraInputs: false };
  const outputs: string[] = [];
  for (const node of nodes) {
    if (node.type !== "end") continue;
    const end = endConfigSchema.safeParse(node.data ?? {});
    for (const output of end.success ? end.data.outputs : []) {
      if (!outputs.includes(output.name)) outputs.push(output.name);
    }
  }
  return {
    inputs: config.inputs.map((input) => ({
      name: input.name,
      type: input.type,
      required: input.required && input.default === undefined,
      ...(input.description ? { description: input.description } : {}),
      ...(input.default === undefined ? {} : { default: input.default }),
    })),
    allowExtraInputs: config.allowExtraInputs,
    inputSchema: runInputsJsonSchema(config),
    outputs,
    chat: chatBinding(startData),
  };
}

/** A published workflow the principal may call, with the version it is served by. */
export interface CatalogEntry extends PublishedWorkflowInterface {
  /** The resolved version, to start runs of exactly what was described. */
  published: PublishedVersion;
}

function entryOf(published: PublishedVersion, name: string, description: string): CatalogEntry {
  return {
    slug: published.slug,
    name,
    description,
    version: published.version,
    ...describeDocumentInterface(published.document),
    published,
  };
}

/**
 * Refuses a principal that may call no published workflow at all (an API key without `run`), so
 * the MCP endpoint answers 403 `api_key_scope_missing` before speaking the protocol.
 * @throws NotSignedInError, ApiKeyScopeMissingError
 */
export function assertMayCallWorkflows(principal: Principal | null): asserts principal is Principal {
  authorize(principal, "workflow.run");
}

/**
 * Every published workflow the principal may run (an API key limited to one workflow sees only
 * it), by slug, each at the version it is served by (`resolvePublishedVersion` decides which).
 */
export async function listCallableWorkflows(principal: Principal | null): Promise<CatalogEntry[]> {
  authorize(principal, "workflow.run");
  const [published, all] = await Promise.all([
    listPublishedWorkflows(principal.workspaceId),
    listWorkflows(principal.workspaceId),
  ]);
  const byId = new Map(all.map((workflow) => [workflow.id, workflow]));
  const callable = published.filter((workflow) =>
    can(principal, "workflow.run", { workspaceId: principal.workspaceId, workflowId: workflow.id }),
  );
  const entries = await Promise.all(
    callable.map(async (workflow) => {
      const version = await resolvePublishedVersion(principal, workflow.slug);
      const row = byId.get(workflow.id);
      return entryOf(version, row?.name ?? workflow.slug, row?.description ?? "");
    }),
  );
  return entries;
}

/**
 * One published workflow the principal may run, at the version it is served by.
 * @throws the errors of `resolvePublishedVersion` (`workflow_not_found`, `workflow_not_published`)
 */
export async function getCallableWorkflow(principal: Principal | null, slug: string): Promise<CatalogEntry> {
  const published = await resolvePublishedVersion(principal, slug);
  authorize(principal, "workflow.run");
  const row = (await listWorkflows(principal.workspaceId)).find((workflow) => workflow.id === published.workflowId);
  return entryOf(published, row?.name ?? slug, row?.description ?? "");
}

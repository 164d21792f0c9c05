import "server-only";
import {
  findFirstPublishedAt,
  findServedVersion,
  getVersionDocument,
  listPublishedWorkflows,
  WorkflowNotFoundError,
} from "../db/workflow-repository";
import type { RunTrigger } from "../runs/run-status";
import { chatBinding } from "../workflow/chat-binding";
import { TrellisError } from "../workflow/errors";
import { endConfigSchema } from "../workflow/nodes/end";
import { startConfigSchema } from "../workflow/nodes/start";
import { parseTemplate, referenceFromSelector, stringifyValue } from "../workflow/variables";
import { authorize, can } from "./access/policy";
import type { Principal } from "./access/principal";
import { compiledVersion } from "./compiled-versions";
import { serviceRoot as root } from "./root";
import { assertRunInputs } from "./run-compile";

/** The workflow has never been published, so it has no endpoint yet. Code `workflow_not_published` (409). */
export class WorkflowNotPublishedError extends TrellisError {
  constructor(slug: string) {
    super("workflow_not_published", `Workflow "${slug}" has no published version.`);
  }
}

/** `slug@version` names a version that was never published. Code `workflow_version_not_found` (404). */
export class WorkflowVersionNotFoundError extends TrellisError {
  constructor(slug: string, version: string) {
    super("workflow_version_not_found", `Workflow "${slug}" has no published version ${version}.`);
  }
}

/** A chat request the workflow cannot take (no user message; a workflow with no text input). Code `invalid_request` (400), naming the field. */
export class ChatRequestError extends TrellisError {
  /** Where the problem is, for the error body. */
  readonly details: { field: string };
  constructor(field: string, message: string) {
    super("invalid_request", message);
    this.details = { field };
  }
}

/** A published version the principal may run. */
export interface PublishedVersion {
  /** Workflow id. */
  workflowId: string;
  /** Workflow slug. */
  slug: string;
  /** WorkflowVersion row id. */
  versionId: string;
  /** Version number (1, 2, …). */
  version: number;
  /** The immutable document of that version. */
  document: unknown;
}

/**
 * The published version `version` of the workflow `slug` in the principal's workspace; without
 * one, the version the workflow is pinned to serve, else the latest. A workflow outside the
 * principal's reach is "not found", like an unknown slug.
 * @throws WorkflowNotFoundError, WorkflowNotPublishedError, WorkflowVersionNotFoundError
 */
export async function resolvePublishedVersion(
  principal: Principal | null,
  slug: string,
  version?: string,
): Promise<PublishedVersion> {
  const found = await findPublishedVersion(principal, slug, version);
  return { ...found, document: await getVersionDocument(found.versionId) };
}

/**
 * {@link resolvePublishedVersion} without the document: the same checks, the same errors.
 * @throws WorkflowNotFoundError, WorkflowNotPublishedError, WorkflowVersionNotFoundError
 */
async function findPublishedVersion(
  principal: Principal | null,
  slug: string,
  version?: string,
): Promise<Omit<PublishedVersion, "document">> {
  authorize(principal, "workflow.run");
  // A number the database could hold, or a name no version has (then only "not found" is told).
  const number = version === undefined ? undefined : /^[1-9]\d{0,8}$/.test(version) ? Number(version) : 0;
  const served = await findServedVersion(principal.workspaceId, slug, number);
  const notAvailable = () =>
    new WorkflowNotFoundError(
      slug,
      `No workflow "${slug}" is available to ${principal.kind === "api-key" ? "this key" : "you"}.`,
    );
  if (!served) throw notAvailable();
  const { workflowId } = served;
  authorize(principal, "workflow.run", { workspaceId: principal.workspaceId, workflowId }, notAvailable);
  if (!served.version) {
    // A pinned workflow serves its pin unless the caller names a version (`version`, `slug@N`).
    const wanted = version ?? (served.servedVersion === null ? undefined : String(served.servedVersion));
    if (wanted === undefined) throw new WorkflowNotPublishedError(slug);
    throw new WorkflowVersionNotFoundError(slug, wanted);
  }
  return { workflowId, slug, versionId: served.version.id, version: served.version.version };
}

/**
 * Checks, without starting anything, what would make a run of `published` with `inputs` the
 * client's error: the document compiles and the inputs fit the start node. Only done when it is
 * cheap (a version naming built-in tools alone: its compile is cached); false when not checked,
 * and the run's start then checks (and refuses) as usual.
 * @throws InvalidRunInputsError (422) for inputs that do not fit
 */
export function precheckVersionRun(published: PublishedVersion, inputs: Record<string, unknown>): boolean {
  const compiled = compiledVersion(published.versionId, published.document);
  if (!compiled?.ok) return false;
  assertRunInputs(compiled.workflow, inputs);
  return true;
}

/** How a run of a published version starts. */
export interface VersionRunOptions {
  /** `api` by default. */
  trigger?: Extract<RunTrigger, "api" | "schedule">;
  /** Hears the run id first, before the run executes (see `StartRunInput.onCreated`). */
  onCreated?: (runId: string) => void;
  /**
   * False when the caller reads only the result (a blocking call, an MCP tool call): the run then
   * emits no text deltas (see `StartRunInput.textDeltas`). Default true.
   */
  textDeltas?: boolean;
}

/** Starts a run of a resolved published version; resolves once the Run row exists. */
export async function startVersionRun(
  principal: Principal,
  published: PublishedVersion,
  inputs: Record<string, unknown>,
  options: VersionRunOptions = {},
): Promise<{ runId: string; version: number; done: Promise<void> }> {
  const started = await root().runs.start({
    workspaceId: principal.workspaceId,
    workflowId: published.workflowId,
    versionId: published.versionId,
    document: published.document,
    inputs,
    trigger: options.trigger ?? "api",
    ...(principal.kind === "api-key" ? { apiKeyId: principal.keyId } : {}),
    ...(options.onCreated ? { onCreated: options.onCreated } : {}),
    textDeltas: options.textDeltas,
  });
  return { ...started, version: published.version };
}

/** A published workflow as the OpenAI-compatible API lists it. */
export interface PublishedModel {
  /** The slug: the `model` to call. */
  id: string;
  /** When it was first published (Unix seconds). */
  created: number;
}

/** The published workflows the principal may run (an API key limited to one workflow sees only it). */
export async function listPublishedModels(principal: Principal | null): Promise<PublishedModel[]> {
  authorize(principal, "workflow.run");
  const workflows = await listPublishedWorkflows(principal.workspaceId);
  return workflows
    .filter((workflow) =>
      can(principal, "workflow.run", { workspaceId: principal.workspaceId, workflowId: workflow.id }),
    )
    .map((workflow) => ({ id: workflow.slug, created: Math.floor(workflow.firstPublishedAt.getTime() / 1000) }));
}

/**
 * One model of {@link listPublishedModels} (OpenAI's `GET /models/{model}`): the slug, or
 * `slug@N` for one of its published versions. Whatever the principal may not call is not found,
 * as in the list.
 * @throws WorkflowNotFoundError, WorkflowNotPublishedError, WorkflowVersionNotFoundError
 */
export async function getPublishedModel(principal: Principal | null, model: string): Promise<PublishedModel> {
  const { slug, version } = parseModelName(model);
  // The same checks as a chat call naming this model: the workflow, the key's limits, the version.
  const { workflowId } = await findPublishedVersion(principal, slug, version);
  const firstPublishedAt = (await findFirstPublishedAt(workflowId)) ?? new Date(0);
  return { id: model, created: Math.floor(firstPublishedAt.getTime() / 1000) };
}

/** Splits a chat `model` into the slug and the pinned version (`slug@2`), if any. */
export function parseModelName(model: string): { slug: string; version?: string } {
  const at = model.lastIndexOf("@");
  return at <= 0 ? { slug: model } : { slug: model.slice(0, at), version: model.slice(at + 1) };
}

/** One chat message with its text content. */
export interface ChatMessage {
  /** `system`, `developer`, `user`, `assistant` or `tool`. */
  role: string;
  /** The text (parts already joined). */
  content: string;
}

/** Where the chat answer comes from in a run. */
export interface ChatAnswerSource {
  /** The run output sent back; null: the first string output. */
  output: string | null;
  /** The node whose streamed `text` deltas are the answer, when the answer is exactly its output. */
  streamNodeId: string | null;
}

interface DocumentNode {
  type?: unknown;
  data?: unknown;
}

function documentNodes(document: unknown): DocumentNode[] {
  const nodes = (document as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) ? (nodes as DocumentNode[]) : [];
}

/** The start node's data (an empty object when the document has none). */
function startData(document: unknown): unknown {
  return documentNodes(document).find((node) => node.type === "start")?.data ?? {};
}

/**
 * A chat request for a workflow whose start node has no text input to take the message: the
 * request names the wrong model, so it answers 400 naming `model`, with what the start declares.
 */
function notAChatModel(slug: string, document: unknown): ChatRequestError {
  const parsed = startConfigSchema.safeParse(startData(document));
  const declared = parsed.success ? parsed.data.inputs.map((input) => `${input.name} (${input.type ?? "string"})`) : [];
  return new ChatRequestError(
    "model",
    `model: the workflow "${slug}" cannot take chat messages: its start node has no text input for the user's message ` +
      `(it declares ${declared.length > 0 ? declared.join(", ") : "no inputs"}). ` +
      `Call POST /api/v1/workflows/${slug}/run with its inputs, or add a text input named "query".`,
  );
}

/**
 * Which node streams the answer: the node every end node's answer output refers to as a whole
 * (`{{llm.text}}` or a selector). A template with more around it, or end nodes that disagree,
 * stream nothing; the final answer is then sent as one chunk.
 */
function answerSource(document: unknown, answerOutput: string | null): ChatAnswerSource {
  const streamed = new Set<string | null>();
  for (const node of documentNodes(document)) {
    if (node.type !== "end") continue;
    const parsed = endConfigSchema.safeParse(node.data ?? {});
    if (!parsed.success) continue;
    const outputs = parsed.data.outputs;
    const output = answerOutput ? outputs.find((item) => item.name === answerOutput) : outputs[0];
    if (!output) continue;
    const reference =
      typeof output.value === "string" ? parseTemplate(output.value).single : referenceFromSelector(output.value);
    streamed.add(reference?.kind === "node" ? reference.root : null);
  }
  const [only] = streamed;
  return { output: answerOutput, streamNodeId: streamed.size === 1 ? (only ?? null) : null };
}

/** The assistant message of a finished run: the chosen output, else the first string output. */
export function chatAnswer(outputs: unknown, source: ChatAnswerSource): string {
  const record = typeof outputs === "object" && outputs !== null ? (outputs as Record<string, unknown>) : {};
  if (source.output !== null) return stringifyValue(record[source.output]);
  const values = Object.values(record);
  return stringifyValue(values.find((value) => typeof value === "string") ?? values[0]);
}

/** How a chat run is asked for. */
export interface ChatRunOptions {
  /** The client's `stream`: without it the run emits no text deltas (nobody reads them). Default true. */
  stream?: boolean;
}

/** A chat run whose request was checked, not started yet (see `planChatRun`). */
export interface PlannedChatRun {
  /** The slug the `model` named. */
  slug: string;
  /** Which output is the answer and which node streams it. */
  answer: ChatAnswerSource;
  /** True when everything that makes the request the client's error was checked (as `PlannedPublishedRun.checked`). */
  checked: boolean;
  /** Creates the Run row and starts the run; resolves once the row exists (`onCreated` hears its id before the run executes). */
  start(onCreated?: (runId: string) => void): Promise<{ runId: string; version: number; done: Promise<void> }>;
}

/**
 * Resolves and checks a run of a published workflow from chat messages
 * (`POST /api/v1/chat/completions`) without starting it: `model` is the slug, optionally
 * `slug@version`; the messages feed the start node as `chatBinding` says (the last user message to
 * its query input, the messages before it to its history input when it has one).
 * @throws ChatRequestError without a user message, or for a start node with no text input (`model`);
 * the errors of `resolvePublishedVersion`; `invalid_input` (422)
 */
export async function planChatRun(
  principal: Principal | null,
  model: string,
  messages: readonly ChatMessage[],
  options: ChatRunOptions = {},
): Promise<PlannedChatRun> {
  const { slug, version } = parseModelName(model);
  const published = await resolvePublishedVersion(principal, slug, version);
  authorize(principal, "workflow.run");
  const last = messages.findLastIndex((message) => message.role === "user");
  if (last < 0) throw new ChatRequestError("messages", "messages: at least one message must have the role user.");
  const binding = chatBinding(startData(published.document));
  if (!binding) throw notAChatModel(slug, published.document);
  const inputs: Record<string, unknown> = { [binding.queryInput]: messages[last]?.content ?? "" };
  if (binding.historyInput) {
    inputs[binding.historyInput] = messages.slice(0, last).map(({ role, content }) => ({ role, content }));
  }
  return {
    slug,
    answer: answerSource(published.document, binding.answerOutput),
    checked: precheckVersionRun(published, inputs),
    start: (onCreated) =>
      startVersionRun(principal, published, inputs, { onCreated, textDeltas: options.stream !== false }),
  };
}

/**
 * Starts a run of a published workflow from chat messages (see `planChatRun`); resolves once the
 * Run row exists.
 */
export async function startChatRun(
  principal: Principal | null,
  model: string,
  messages: readonly ChatMessage[],
  options: ChatRunOptions = {},
): Promise<{ runId: string; version: number; slug: string; done: Promise<void>; answer: ChatAnswerSource }> {
  const planned = await planChatRun(principal, model, messages, options);
  return { ...(await planned.start()), slug: planned.slug, answer: planned.answer };
}

/** Where the chat answer of a run of `document` comes from (answering a replayed request). */
export function chatAnswerSourceOf(document: unknown): ChatAnswerSource {
  return answerSource(document, chatBinding(startData(document))?.answerOutput ?? null);
}

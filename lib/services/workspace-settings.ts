import "server-only";
import type { HttpCredentialInput, HttpCredentialUpdate } from "../contracts/http-credential";
import type { ProviderInput } from "../contracts/provider-config";
import type { ToolSourceInput } from "../contracts/tool-source-config";
import {
  type ApiKeySettings,
  createApiKey as createApiKeyRow,
  listApiKeys,
  revokeApiKey,
  updateApiKey,
} from "../db/api-key-repository";
import {
  createHttpCredential as createHttpCredentialRow,
  deleteHttpCredential as deleteHttpCredentialRow,
  listHttpCredentials as listHttpCredentialRows,
  updateHttpCredential as updateHttpCredentialRow,
} from "../db/http-credential-repository";
import {
  deleteProvider as deleteProviderRow,
  getProviderView,
  listProviders as listProviderRows,
  loadProvider,
  mergeProviderInput,
  ProviderNotFoundError,
  upsertProvider,
} from "../db/provider-repository";
import { getToolSource, listToolSources as listToolSourceRows } from "../db/tool-source-repository";
import { WorkflowNotFoundError } from "../db/workflow-repository";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { defaultApiRateLimit } from "./access/rate-limits";
import { recordAudit } from "./audit-log";
import { describeModelMode, listModelOptions } from "./model-catalog";
import { checkProvider } from "./provider-check";
import {
  listToolSourceReports,
  refreshToolSource as refreshToolSourceConnection,
  removeToolSource,
  saveReadOnlyTools,
  saveToolSource,
  testToolSourceConnection,
} from "./tool-source-service";
import { loadWorkflow } from "./workflows";
import { listWorkspaceTools } from "./workspace-tools";

/** The workspace of a principal allowed to change settings (owners and admins). */
export function settingsWorkspace(principal: Principal | null): string {
  authorize(principal, "settings.manage");
  return principal.workspaceId;
}

/** The workspace of any member (pickers in the editor list names, never secrets). */
export function memberWorkspace(principal: Principal | null): string {
  authorize(principal, "workspace.read");
  return principal.workspaceId;
}

// Model providers -----------------------------------------------------------------------------

/** Providers (no secrets) and the server's model mode. */
export async function listProviders(principal: Principal | null) {
  const workspaceId = settingsWorkspace(principal);
  return { providers: await listProviderRows(workspaceId), mode: describeModelMode() };
}

/** One provider (no secrets). */
export async function getProvider(principal: Principal | null, name: string) {
  const provider = await getProviderView(settingsWorkspace(principal), name);
  if (!provider) throw new ProviderNotFoundError(name);
  return provider;
}

/** Adds (`create`) or replaces (`update`) a provider; secrets left out on update keep their stored values. */
export async function saveProvider(principal: Principal | null, input: ProviderInput, mode: "create" | "update") {
  const saved = await upsertProvider(settingsWorkspace(principal), input, mode);
  await recordAudit(principal, {
    action: mode === "create" ? "credential.created" : "credential.updated",
    target: { type: "provider", id: saved.name, label: saved.name },
    // Names of what changed, never values: secrets are only "set" or "kept".
    detail: {
      kind: "llm-provider",
      baseURL: saved.baseURL,
      apiKey: input.apiKey === undefined ? "kept" : "set",
      headers: saved.headers.map((header) => header.name),
    },
  });
  return saved;
}

/** Deletes a provider; nodes that use it then fail with `model_not_configured`. */
export async function deleteProvider(principal: Principal | null, name: string): Promise<void> {
  await deleteProviderRow(settingsWorkspace(principal), name);
  await recordAudit(principal, {
    action: "credential.deleted",
    target: { type: "provider", id: name, label: name },
    detail: { kind: "llm-provider" },
  });
}

/** "Test": the settings as typed; empty secrets are taken from the stored provider of this name. */
export async function testProvider(
  principal: Principal | null,
  name: string,
  input: Omit<ProviderInput, "name"> & { model?: string },
) {
  const workspaceId = settingsWorkspace(principal);
  const { model, ...settings } = input;
  const provider = mergeProviderInput({ ...settings, name } as ProviderInput, await loadProvider(workspaceId, name));
  return checkProvider(provider, { name, model });
}

/** Models for the editor's model picker. */
export async function listModels(principal: Principal | null) {
  return listModelOptions(memberWorkspace(principal));
}

// Tools -----------------------------------------------------------------------------------------

/** Tools for the tool picker, with unreachable sources and collisions as `problems`. */
export function listTools(principal: Principal | null) {
  return listWorkspaceTools(memberWorkspace(principal));
}

/** Tool sources with their tools and health (secrets reduced to flags). */
export async function listToolSources(principal: Principal | null) {
  const workspaceId = settingsWorkspace(principal);
  return listToolSourceReports(workspaceId, await listToolSourceRows(workspaceId));
}

/** One tool source with its tools and health; another workspace's id is "not found". */
export async function getToolSourceReport(principal: Principal | null, id: string) {
  const workspaceId = settingsWorkspace(principal);
  const [report] = await listToolSourceReports(workspaceId, [await getToolSource(workspaceId, id)]);
  return report;
}

/** Adds (no id) or replaces a tool source. */
export async function putToolSource(principal: Principal | null, input: ToolSourceInput, id?: string) {
  const saved = await saveToolSource(settingsWorkspace(principal), input, id);
  await recordAudit(principal, {
    action: id ? "credential.updated" : "credential.created",
    target: { type: "tool_source", id: saved.id, label: saved.name },
    detail: { kind: input.kind },
  });
  return saved;
}

/** Sets which tools of a source are trusted as read-only. */
export function setReadOnlyTools(principal: Principal | null, id: string, names: string[]) {
  return saveReadOnlyTools(settingsWorkspace(principal), id, names);
}

/** Deletes a source, its secrets and its MCP connection. */
export async function deleteToolSource(principal: Principal | null, id: string): Promise<void> {
  const workspaceId = settingsWorkspace(principal);
  const source = await getToolSource(workspaceId, id);
  await removeToolSource(workspaceId, id);
  await recordAudit(principal, {
    action: "credential.deleted",
    target: { type: "tool_source", id, label: source.name },
    detail: { kind: source.kind },
  });
}

/** Lists an MCP server's tools again, reconnecting when needed. */
export function refreshToolSource(principal: Principal | null, id: string) {
  return refreshToolSourceConnection(settingsWorkspace(principal), id);
}

/** "Test connection" of an MCP server as submitted. */
export function testToolSource(principal: Principal | null, input: Parameters<typeof testToolSourceConnection>[1]) {
  return testToolSourceConnection(settingsWorkspace(principal), input);
}

// HTTP credentials ------------------------------------------------------------------------------

/** Credential names and shapes (never secrets), for the settings page and the HTTP node's picker. */
export function listHttpCredentials(principal: Principal | null) {
  return listHttpCredentialRows(memberWorkspace(principal));
}

/** Adds an HTTP credential; the secret is encrypted at rest and never returned. */
export async function createHttpCredential(principal: Principal | null, input: HttpCredentialInput) {
  const created = await createHttpCredentialRow(settingsWorkspace(principal), input);
  await recordAudit(principal, {
    action: "credential.created",
    target: { type: "http_credential", id: created.name, label: created.name },
    detail: { kind: "http-auth", type: created.type, allowedHosts: created.allowedHosts },
  });
  return created;
}

/** Changes where an HTTP credential may be sent and, optionally, its secret. */
export async function updateHttpCredential(principal: Principal | null, name: string, input: HttpCredentialUpdate) {
  const updated = await updateHttpCredentialRow(settingsWorkspace(principal), name, input);
  await recordAudit(principal, {
    action: "credential.updated",
    target: { type: "http_credential", id: updated.name, label: updated.name },
    detail: { kind: "http-auth", allowedHosts: updated.allowedHosts, secret: input.secret ? "set" : "kept" },
  });
  return updated;
}

/** Deletes an HTTP credential. */
export async function deleteHttpCredential(principal: Principal | null, name: string): Promise<void> {
  await deleteHttpCredentialRow(settingsWorkspace(principal), name);
  await recordAudit(principal, {
    action: "credential.deleted",
    target: { type: "http_credential", id: name, label: name },
    detail: { kind: "http-auth" },
  });
}

// API keys --------------------------------------------------------------------------------------

/** The workspace's API keys (never their secrets). */
export function listKeys(principal: Principal | null) {
  return listApiKeys(settingsWorkspace(principal));
}

/**
 * A key's workflow limit names a workflow that is not one of the workspace's (unknown, or another
 * workspace's: the same answer, so ids of other workspaces cannot be probed). Code
 * `unknown_workflow` (422), naming the field (`workflowIds.<n>` or `workflowId`).
 */
export class UnknownKeyWorkflowError extends TrellisError {
  /** Where the problem is, for the error body. */
  readonly details: { field: string };
  constructor(field: string, id: string) {
    super("unknown_workflow", `${field}: no workflow "${id}" in this workspace.`);
    this.details = { field };
  }
}

/** Every workflow of a limit must be one of the workspace's, else 422 naming the field. */
async function checkWorkflowLimit(principal: Principal, input: ApiKeySettings): Promise<void> {
  const references: [string, string][] = [
    ...(input.workflowIds ?? []).map((id, index): [string, string] => [`workflowIds.${index}`, id]),
    ...(input.workflowId ? [["workflowId", input.workflowId] as [string, string]] : []),
  ];
  for (const [field, id] of references) {
    try {
      await loadWorkflow(principal, id);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new UnknownKeyWorkflowError(field, id);
      throw error;
    }
  }
}

/**
 * Creates a key with its scopes and optional limits (workflows, CORS origins, requests per
 * minute); the answer carries the secret, which is never shown again.
 * @throws UnknownKeyWorkflowError (422) for a workflow limit outside the workspace
 */
export async function createKey(principal: Principal | null, input: { name: string } & ApiKeySettings) {
  const workspaceId = settingsWorkspace(principal);
  await checkWorkflowLimit(principal!, input);
  const created = await createApiKeyRow(workspaceId, input);
  await recordAudit(principal, {
    action: "api_key.created",
    target: { type: "api_key", id: created.key.id, label: created.key.name },
    detail: keyDetail(created.key),
  });
  return created;
}

/** What the audit log keeps of a key: its limits and the recognisable prefix, never the secret. */
function keyDetail(key: { prefix: string; scopes: string[]; workflowIds: string[] | null; allowedOrigins: string[] }) {
  return { prefix: key.prefix, scopes: key.scopes, workflowIds: key.workflowIds, allowedOrigins: key.allowedOrigins };
}

/**
 * Changes a key's scopes and limits; clients keep their secret.
 * @throws ApiKeyNotFoundError (404), UnknownKeyWorkflowError (422)
 */
export async function updateKey(principal: Principal | null, id: string, input: ApiKeySettings) {
  const workspaceId = settingsWorkspace(principal);
  await checkWorkflowLimit(principal!, input);
  const updated = await updateApiKey(workspaceId, id, input);
  await recordAudit(principal, {
    action: "api_key.updated",
    target: { type: "api_key", id: updated.id, label: updated.name },
    detail: keyDetail(updated),
  });
  return updated;
}

/** Requests per minute of a key without its own limit (TRELLIS_API_RATE_LIMIT). */
export function defaultKeyRateLimit(): number {
  return defaultApiRateLimit();
}

/** Revokes a key. */
export async function revokeKey(principal: Principal | null, id: string): Promise<void> {
  const workspaceId = settingsWorkspace(principal);
  await revokeApiKey(workspaceId, id);
  const key = (await listApiKeys(workspaceId)).find((entry) => entry.id === id);
  await recordAudit(principal, {
    action: "api_key.revoked",
    target: { type: "api_key", id, label: key?.name ?? null },
    detail: key ? { prefix: key.prefix } : null,
  });
}

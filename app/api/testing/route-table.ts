import { type AcmeResources, echoDocument } from "./two-workspaces";

/**
 * How the isolation and fuzz suites call each (route, method) on disk, keyed `"METHOD /api/path"`
 * with Next's folder names (`[id]`). A route file or method without an entry fails both suites,
 * so adding a route means adding one line here.
 *
 * `access` says what a caller from outside workspace A may get:
 * - `resource`: the path names one of A's resources → 401, 403 or 404 for everyone but A's members;
 * - `reference`: the body or query names A's resources → 401, 403, 404 or 422 (a foreign id is
 *   "not found" or an invalid reference, never accepted);
 * - `own-workspace`: acts on the caller's own workspace (lists, creates, settings) → any non-5xx
 *   answer, as long as it carries none of A's data;
 * - `self`: acts on the caller's own account or session (`reason` says which);
 * - `public`: needs no principal (`reason` says why); checked to carry none of A's data.
 */
export interface RouteEntry {
  access: "resource" | "reference" | "own-workspace" | "self" | "public";
  /** Why a `self` or `public` entry is open. */
  reason?: string;
  /** Path parameters filled with A's resources. */
  params?: (acme: AcmeResources) => Record<string, string>;
  /** Query string (without `?`). */
  query?: (acme: AcmeResources) => string;
  /** A minimal valid JSON body (POST/PUT/PATCH). Absent: the route reads no JSON body. */
  body?: (acme: AcmeResources) => unknown;
  /** A viewer of A may make this write (the reason); else a viewer is refused with 401/403/404. */
  viewerMay?: string;
  /**
   * The status A's owner gets, checked as proof that the fixtures are right (every GET defaults
   * to 2xx; writes are checked only where set, since many change or delete the fixtures).
   */
  owner?: number | "2xx" | "skip";
  /**
   * The route ends the caller's own sessions (sign-out, sign out everywhere): after each call the
   * suites sign that caller in again, so the shared callers stay signed in.
   */
  endsSession?: boolean;
}

const workflow = (acme: AcmeResources) => ({ id: acme.workflowId });
const run = (acme: AcmeResources) => ({ runId: acme.runId });
const slug = (acme: AcmeResources) => ({ slug: acme.workflowSlug });

/** A second OpenAPI spec, for tool sources B creates (no "acme" in it). */
const OTHER_SPEC = `openapi: 3.0.3
info: { title: Other, version: "1" }
servers: [{ url: "https://other.example.test/v1" }]
paths:
  /ping:
    get:
      operationId: ping
      responses: { "200": { description: ok } }
`;

const REVIEW = "reviewing (rating, labels, comments) changes no workflow: viewers may (lib/services/access/policy.ts)";

const INVITE_LINK =
  "an invitation link is its own capability: an unknown token is 404 for everyone, and a real one shows its holder only the workspace name and role (app/api/invite/[token]/route.test.ts)";

const CATCH_ALL = "the catch-all answers every unknown /api path with a JSON 404 before any lookup";

/** The table. */
export const ROUTE_TABLE: Record<string, RouteEntry> = {
  "GET /api/[...path]": { access: "public", reason: CATCH_ALL, params: () => ({ path: "nope" }), owner: 404 },
  "POST /api/[...path]": { access: "public", reason: CATCH_ALL, params: () => ({ path: "nope" }), owner: 404 },
  "PUT /api/[...path]": { access: "public", reason: CATCH_ALL, params: () => ({ path: "nope" }), owner: 404 },
  "PATCH /api/[...path]": { access: "public", reason: CATCH_ALL, params: () => ({ path: "nope" }), owner: 404 },
  "DELETE /api/[...path]": { access: "public", reason: CATCH_ALL, params: () => ({ path: "nope" }), owner: 404 },

  "GET /api/account/sessions": { access: "self", reason: "lists the caller's own sessions" },
  "DELETE /api/account/sessions/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.sessionId }),
  },
  "POST /api/account/sessions/revoke-all": {
    access: "self",
    reason: "signs the caller out everywhere: only the caller's own sessions end",
    viewerMay: "every member may end their own sessions",
    endsSession: true,
  },
  "PUT /api/session/workspace": {
    access: "reference",
    body: (acme) => ({ workspaceId: acme.workspaceId }),
    viewerMay: "switching into a workspace one belongs to needs no role",
  },
  "POST /api/account/password": {
    access: "self",
    reason: "changes the caller's own password (needs the current one)",
    body: () => ({ currentPassword: "not-the-password", newPassword: "another-password" }),
    viewerMay: "every member may change their own password",
  },
  "GET /api/api-keys": { access: "own-workspace" },
  "POST /api/api-keys": {
    access: "reference",
    body: (acme) => ({ name: "isolation key", workflowId: acme.workflowId }),
  },
  "PATCH /api/api-keys/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.apiKeyId }),
    body: () => ({ scopes: ["run", "read-runs", "manage", "evaluate"] }),
    owner: 200,
  },
  "DELETE /api/api-keys/[id]": { access: "resource", params: (acme) => ({ id: acme.apiKeyId }) },

  "POST /api/auth/login": {
    access: "public",
    reason: "sign-in: anyone may try, a wrong password is 401 without saying whether the e-mail exists",
    body: () => ({ email: "owner@acme.test", password: "wrong-password" }),
    viewerMay: "sign-in needs no role",
  },
  "POST /api/auth/logout": {
    access: "public",
    reason: "sign-out only ends the caller's own session",
    viewerMay: "sign-out needs no role",
    endsSession: true,
  },

  "GET /api/credentials": { access: "own-workspace" },
  "POST /api/credentials": {
    access: "own-workspace",
    body: () => ({
      name: "isolation-credential",
      type: "bearer",
      secret: "isolation-secret",
      allowedHosts: ["isolation.example.test"],
    }),
  },
  "DELETE /api/credentials/[name]": { access: "resource", params: (acme) => ({ name: acme.credentialName }) },
  "PATCH /api/credentials/[name]": {
    access: "resource",
    params: (acme) => ({ name: acme.credentialName }),
    body: () => ({ allowedHosts: ["a.example.test"] }),
  },
  "GET /api/audit": { access: "own-workspace" },
  "GET /api/tags": { access: "own-workspace" },
  "GET /api/invitations": { access: "own-workspace" },
  "POST /api/invitations": { access: "own-workspace", body: () => ({ role: "viewer" }) },
  "DELETE /api/invitations/[id]": { access: "resource", params: (acme) => ({ id: acme.invitationId }) },
  "GET /api/invite/[token]": {
    access: "public",
    reason: INVITE_LINK,
    params: () => ({ token: "not-a-real-invitation-token" }),
    owner: 404,
  },
  "POST /api/invite/[token]/accept": {
    access: "public",
    reason: INVITE_LINK,
    params: () => ({ token: "not-a-real-invitation-token" }),
    viewerMay: "accepting a link needs no role",
  },
  "POST /api/invite/[token]/sign-up": {
    access: "public",
    reason: INVITE_LINK,
    params: () => ({ token: "not-a-real-invitation-token" }),
    body: () => ({ name: "New", email: "new@isolation.test", password: "long-enough-password" }),
    viewerMay: "signing up through a link needs no role",
  },
  "GET /api/runs/filter-options": { access: "own-workspace" },
  "GET /api/workspaces": { access: "self", reason: "lists the caller's own workspaces and roles" },
  "POST /api/workspaces": {
    access: "self",
    reason: "creates a workspace the caller owns",
    body: () => ({ name: "Isolation workspace" }),
    viewerMay: "anyone signed in may create a workspace of their own",
  },
  "PATCH /api/workspaces/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.workspaceId }),
    body: () => ({ name: "Renamed workspace" }),
  },
  "POST /api/tags": { access: "own-workspace", body: () => ({ name: "isolation-tag" }) },
  "PATCH /api/tags/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.tagId }),
    body: () => ({ name: "renamed-tag" }),
  },
  "DELETE /api/tags/[id]": { access: "resource", params: (acme) => ({ id: acme.tagId }) },
  "GET /api/audit/export": { access: "own-workspace" },

  "GET /api/datasets": { access: "own-workspace" },
  "POST /api/datasets": {
    access: "reference",
    body: (acme) => ({ name: "isolation-dataset", workflowId: acme.workflowId }),
  },
  "GET /api/datasets/[id]": { access: "resource", params: (acme) => ({ id: acme.datasetId }) },
  "PUT /api/datasets/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.datasetId }),
    body: () => ({ cases: [{ id: "case-1", inputs: {} }] }),
    owner: 200,
  },
  "PATCH /api/datasets/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.datasetId }),
    body: () => ({ description: "changed" }),
    owner: 200,
  },
  "DELETE /api/datasets/[id]": { access: "resource", params: (acme) => ({ id: acme.datasetId }) },
  "GET /api/datasets/[id]/export": { access: "resource", params: (acme) => ({ id: acme.datasetId }) },
  "POST /api/datasets/from-run": {
    access: "reference",
    body: (acme) => ({ runId: acme.runId, newDatasetName: "isolation-from-run" }),
  },
  "POST /api/datasets/import": {
    access: "reference",
    body: (acme) => ({ format: "jsonl", text: '{"id":"imported"}\n', datasetId: acme.datasetId }),
  },

  "GET /api/evaluations": { access: "own-workspace", query: (acme) => `workflowId=${acme.workflowId}` },
  "POST /api/evaluations": {
    access: "reference",
    body: (acme) => ({ workflowId: acme.workflowId, datasetId: acme.datasetId, trials: 1 }),
  },
  "GET /api/evaluations/[id]": { access: "resource", params: (acme) => ({ id: acme.evaluationId }) },
  "GET /api/evaluations/[id]/events": { access: "resource", params: (acme) => ({ id: acme.evaluationId }) },
  "POST /api/evaluations/[id]/cancel": { access: "resource", params: (acme) => ({ id: acme.evaluationId }) },
  "POST /api/evaluations/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.evaluationId }),
    body: () => ({ action: "cancel" }),
  },
  "GET /api/evaluations/compare": {
    access: "reference",
    query: (acme) => `base=${acme.evaluationId}&candidate=${acme.evaluationId}`,
  },
  "GET /api/evaluations/gates/[workflowId]": {
    access: "resource",
    params: (acme) => ({ workflowId: acme.workflowId }),
  },
  "PUT /api/evaluations/gates/[workflowId]": {
    access: "resource",
    params: (acme) => ({ workflowId: acme.workflowId }),
    body: () => ({ datasetId: null }),
    owner: "2xx",
  },

  "GET /api/health": { access: "public", reason: "liveness for load balancers: status only, no workspace data" },

  "GET /api/members": { access: "own-workspace" },
  "POST /api/members": {
    access: "own-workspace",
    body: () => ({ email: "newcomer@isolation.test", role: "viewer", password: "newcomer-password" }),
  },
  "PATCH /api/members/[userId]": {
    access: "resource",
    params: (acme) => ({ userId: acme.viewerId }),
    body: () => ({ role: "editor" }),
  },
  "DELETE /api/members/[userId]": { access: "resource", params: (acme) => ({ userId: acme.viewerId }) },

  "GET /api/models": { access: "own-workspace" },

  "GET /api/providers": { access: "own-workspace" },
  "POST /api/providers": {
    access: "own-workspace",
    body: () => ({ name: "isolation-provider", baseURL: "https://llm.isolation.test/v1" }),
  },
  "GET /api/providers/[name]": { access: "resource", params: (acme) => ({ name: acme.providerName }) },
  "PUT /api/providers/[name]": {
    access: "resource",
    params: (acme) => ({ name: acme.providerName }),
    body: (acme) => ({ name: acme.providerName, baseURL: "https://llm.acme.test/v1", models: ["acme-model"] }),
    owner: 200,
  },
  "DELETE /api/providers/[name]": { access: "resource", params: (acme) => ({ name: acme.providerName }) },
  "POST /api/providers/[name]/test": {
    // Tests the settings as typed, saved or not; the name only lends a stored key of the caller's own workspace.
    access: "own-workspace",
    params: (acme) => ({ name: acme.providerName }),
    body: () => ({ baseURL: "https://llm.acme.test/v1" }),
  },

  "GET /api/retention": { access: "own-workspace" },
  "PUT /api/retention": {
    access: "own-workspace",
    body: () => ({ maxAgeDays: 30, maxCount: null, keepAnnotatedDays: null }),
  },

  "GET /api/runs": { access: "reference", query: (acme) => `workflowId=${acme.workflowId}` },
  "GET /api/runs/compare": { access: "reference", query: (acme) => `a=${acme.runId}&b=${acme.runId}` },
  "GET /api/runs/export": { access: "reference", query: (acme) => `workflowId=${acme.workflowId}` },
  "GET /api/runs/needs-review": { access: "own-workspace" },
  "GET /api/runs/[runId]": { access: "resource", params: run },
  "POST /api/runs/[runId]/cancel": { access: "resource", params: run },
  "GET /api/runs/[runId]/comments": { access: "resource", params: run },
  "POST /api/runs/[runId]/comments": {
    access: "resource",
    params: run,
    body: () => ({ body: "isolation note" }),
    viewerMay: REVIEW,
  },
  "GET /api/runs/[runId]/events": { access: "resource", params: run },
  "GET /api/runs/[runId]/export": { access: "resource", params: run },
  "GET /api/runs/[runId]/node-runs/[nodeRunId]": {
    access: "resource",
    params: (acme) => ({ runId: acme.runId, nodeRunId: acme.nodeRunId }),
  },
  "POST /api/runs/[runId]/rerun": { access: "resource", params: run, body: () => ({ target: "same" }) },
  "POST /api/runs/[runId]/resume": {
    access: "resource",
    params: run,
    body: (acme) => ({ nodeId: acme.nodeId, answer: {} }),
  },
  "GET /api/runs/[runId]/review": { access: "resource", params: run },
  "PATCH /api/runs/[runId]/review": {
    access: "resource",
    params: run,
    body: () => ({ reviewed: true }),
    viewerMay: REVIEW,
    owner: 200,
  },

  "GET /api/tool-sources": { access: "own-workspace" },
  "POST /api/tool-sources": {
    access: "own-workspace",
    body: () => ({ kind: "openapi", name: "Other tools", spec: OTHER_SPEC }),
  },
  "POST /api/tool-sources/test": {
    access: "reference",
    body: (acme) => ({ connection: { transport: "http", url: "https://mcp.acme.test/mcp" }, id: acme.toolSourceId }),
  },
  "GET /api/tool-sources/[id]": { access: "resource", params: (acme) => ({ id: acme.toolSourceId }) },
  "PUT /api/tool-sources/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.toolSourceId }),
    body: () => ({ kind: "openapi", name: "Acme weather", spec: OTHER_SPEC }),
  },
  "PATCH /api/tool-sources/[id]": {
    access: "resource",
    params: (acme) => ({ id: acme.toolSourceId }),
    body: () => ({ readOnlyTools: ["getForecast"] }),
    owner: 200,
  },
  "DELETE /api/tool-sources/[id]": { access: "resource", params: (acme) => ({ id: acme.toolSourceId }) },
  "POST /api/tool-sources/[id]/refresh": { access: "resource", params: (acme) => ({ id: acme.toolSourceId }) },

  "GET /api/tools": { access: "own-workspace" },

  "POST /api/v1/chat/completions": {
    access: "reference",
    body: (acme) => ({ model: acme.workflowSlug, messages: [{ role: "user", content: "hi" }] }),
  },
  "POST /api/v1/evaluations": {
    access: "reference",
    body: (acme) => ({ workflow: acme.workflowSlug, cases: [{ id: "c1" }], k: 1, wait: false, timeout_seconds: 1 }),
  },
  "GET /api/v1/evaluations/[id]": { access: "resource", params: (acme) => ({ id: acme.evaluationId }) },
  "POST /api/v1/mcp": {
    access: "own-workspace",
    body: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  },
  "GET /api/v1/models": { access: "own-workspace" },
  "GET /api/v1/models/[model]": { access: "resource", params: (acme) => ({ model: acme.workflowSlug }) },
  "GET /api/v1/openapi.json": { access: "public", reason: "the API's OpenAPI document: the same for everyone" },
  "GET /api/v1/runs/[runId]": { access: "resource", params: run },
  "POST /api/v1/runs/[runId]/cancel": { access: "resource", params: run },
  "GET /api/v1/runs/[runId]/events": { access: "resource", params: run },
  "POST /api/v1/runs/[runId]/resume": {
    access: "resource",
    params: run,
    body: (acme) => ({ nodeId: acme.nodeId, answer: {} }),
  },
  "GET /api/v1/workflows": { access: "own-workspace" },
  "GET /api/v1/workflows/[slug]": { access: "resource", params: slug },
  "POST /api/v1/workflows/[slug]/run": { access: "resource", params: slug, body: () => ({ inputs: {} }) },
  "PUT /api/v1/workflows/[slug]/served-version": {
    access: "resource",
    params: slug,
    body: () => ({ version: null }),
  },
  "GET /api/v1/workflows/[slug]/versions": { access: "resource", params: slug },

  "GET /api/variables": { access: "own-workspace" },
  "POST /api/variables": { access: "own-workspace", body: () => ({ name: "ISOLATION_VARIABLE", value: "v" }) },
  "PUT /api/variables/[name]": {
    access: "resource",
    params: (acme) => ({ name: acme.variableName }),
    body: () => ({ value: "changed" }),
    owner: 200,
  },
  "DELETE /api/variables/[name]": { access: "resource", params: (acme) => ({ name: acme.variableName }) },

  "GET /api/workflows": { access: "own-workspace" },
  "POST /api/workflows": { access: "reference", body: (acme) => ({ duplicateOf: acme.workflowId }) },
  "POST /api/workflows/import": {
    access: "own-workspace",
    body: () => ({ format: "trellis", content: JSON.stringify(echoDocument("imported")), dryRun: true }),
  },
  "GET /api/workflows/[id]": { access: "resource", params: workflow },
  "GET /api/workflows/[id]/tags": { access: "resource", params: workflow },
  "PUT /api/workflows/[id]/tags": {
    access: "resource",
    params: workflow,
    body: (acme) => ({ tagIds: [acme.tagId] }),
  },
  "PUT /api/workflows/[id]": {
    access: "resource",
    params: workflow,
    body: () => ({ draft: echoDocument("changed"), expectedRevision: 0 }),
  },
  "POST /api/workflows/[id]": { access: "resource", params: workflow, body: () => ({ action: "publish" }) },
  "DELETE /api/workflows/[id]": { access: "resource", params: workflow },
  "GET /api/workflows/[id]/export": { access: "resource", params: workflow },
  "POST /api/workflows/[id]/nodes/[nodeId]/run": {
    access: "resource",
    params: (acme) => ({ id: acme.workflowId, nodeId: acme.nodeId }),
    body: () => ({ variables: {} }),
  },
  "GET /api/workflows/[id]/runs": { access: "resource", params: workflow },
  "POST /api/workflows/[id]/runs": { access: "resource", params: workflow, body: () => ({ inputs: {} }) },
  "GET /api/workflows/[id]/schedule": { access: "resource", params: workflow },
  "PUT /api/workflows/[id]/schedule": {
    access: "resource",
    params: workflow,
    body: () => ({ cron: "0 4 * * *", enabled: false }),
    owner: 200,
  },
  "DELETE /api/workflows/[id]/schedule": { access: "resource", params: workflow },
  "PUT /api/workflows/[id]/served-version": {
    access: "resource",
    params: workflow,
    body: () => ({ version: null }),
    owner: "2xx",
  },
  "PUT /api/workflows/[id]/slug": { access: "resource", params: workflow, body: () => ({ slug: "isolation-slug" }) },
  "GET /api/workflows/[id]/versions": { access: "resource", params: workflow },
  "GET /api/workflows/[id]/versions/diff": { access: "resource", params: workflow, query: () => "from=1&to=draft" },
  "GET /api/workflows/[id]/versions/[version]": {
    access: "resource",
    params: (acme) => ({ id: acme.workflowId, version: String(acme.version) }),
  },
  "POST /api/workflows/[id]/versions/[version]/restore": {
    access: "resource",
    params: (acme) => ({ id: acme.workflowId, version: String(acme.version) }),
    body: () => ({}),
  },
};

/** The URL of an entry: the path with its parameters filled in, and its query. */
export function entryUrl(routePath: string, params: Record<string, string>, query: string | undefined): string {
  const filled = routePath.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ""),
  );
  return query ? `${filled}?${query}` : filled;
}

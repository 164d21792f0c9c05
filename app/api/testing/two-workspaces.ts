import { createApiKeyBodySchema } from "@/app/api/api-keys/schema";
import { API_KEY_SCOPES } from "@/lib/contracts/api-keys";
import { createApiKey } from "@/lib/db/api-key-repository";
import { createUserWithPassword } from "@/lib/db/credentials";
import { hashPassword } from "@/lib/db/passwords";
import type { Database } from "@/lib/db/prisma-client";
import { seedDatabase } from "@/lib/db/seed";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import { sessionCookieFor } from "@/lib/services/testing/api-client";
import type { WorkflowDocument } from "@/lib/workflow/document";
import type { Handler } from "./route-files";

/**
 * Two workspaces for the isolation and fuzz suites: A holds one of every kind of resource (all
 * named with "acme" so a leak is easy to spot), B is a separate team with its own owner, workflow
 * and an API key of every scope. A's resources are made through the real routes where one
 * exists, so the fixtures are what a user would have.
 */

/** The OpenAPI spec of A's tool source. */
export const ACME_SPEC = `openapi: 3.0.3
info: { title: Acme Weather, version: "1" }
servers: [{ url: "https://weather.acme.test/v1" }]
paths:
  /forecast:
    get:
      operationId: getForecast
      summary: Forecast for a city
      parameters:
        - { name: city, in: query, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }
`;

/** A start → template → end workflow that needs no model, so runs finish at once. */
export function echoDocument(text: string): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
      { id: "text", type: "template", position: { x: 200, y: 0 }, data: { title: "Text", template: text } },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "answer", value: "{{text.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "text" },
      { id: "e2", source: "text", target: "end" },
    ],
  };
}

/** Who calls a route in a suite. */
export type Caller = { kind: "session"; cookie: string } | { kind: "api-key"; secret: string } | { kind: "none" };

/** A request as a route handler receives it. */
export interface Call {
  method: string;
  /** URL path with the query, e.g. `/api/runs?workflowId=…`. */
  url: string;
  params: Record<string, string>;
  /** JSON body (sent as application/json), or a raw body with its own content type. */
  body?: unknown;
  raw?: { contentType: string | null; bytes: Uint8Array | string };
  /** Hand the handler a params promise that rejects, as Next's does when it cannot decode the path. */
  paramsRejected?: boolean;
}

/** Builds the Request of a call by a caller (same-origin headers, as the app's own pages send). */
export function buildRequest(call: Call, caller: Caller): Request {
  const headers = new Headers();
  if (caller.kind === "session") headers.set("cookie", caller.cookie);
  if (caller.kind === "api-key") headers.set("authorization", `Bearer ${caller.secret}`);
  let body: BodyInit | undefined;
  if (call.raw) {
    if (call.raw.contentType !== null) headers.set("content-type", call.raw.contentType);
    body = call.raw.bytes as BodyInit;
  } else if (call.body !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(call.body);
  }
  return new Request(`http://localhost${call.url}`, { method: call.method, headers, body });
}

/** Calls a handler in-process. */
export async function invoke(handler: Handler, call: Call, caller: Caller): Promise<Response> {
  const params = call.paramsRejected ? Promise.reject(new URIError("URI malformed")) : Promise.resolve(call.params);
  // A rejection nobody awaits must not fail the run as "unhandled".
  params.catch(() => undefined);
  return handler(buildRequest(call, caller), { params });
}

/** Workspace A's resources, by kind. */
export interface AcmeResources {
  workspaceId: string;
  ownerId: string;
  viewerId: string;
  workflowId: string;
  workflowSlug: string;
  nodeId: string;
  version: number;
  runId: string;
  nodeRunId: string;
  apiKeyId: string;
  apiKeySecret: string;
  credentialName: string;
  providerName: string;
  toolSourceId: string;
  datasetId: string;
  evaluationId: string;
  variableName: string;
  commentId: string;
  /** A pending invitation into A. */
  invitationId: string;
  /** A's workflow tag (on A's workflow). */
  tagId: string;
  /** The id of A's owner's session (the one the suites sign in with). */
  sessionId: string;
}

/** A fresh session of `userId`, for routes that end the caller's session (`endsSession`). */
export async function freshSession(userId: string): Promise<Caller> {
  return { kind: "session", cookie: await sessionCookieFor(userId) };
}

/** Both workspaces and the callers of the suites. */
export interface TwoWorkspaces {
  acme: AcmeResources;
  bravo: { workspaceId: string; ownerId: string; workflowId: string; apiKeySecret: string; runId: string };
  callers: {
    acmeOwner: Caller;
    /** A's API key with every scope: the owner's way into /api/v1. */
    acmeKey: Caller;
    acmeViewer: Caller;
    bravoUser: Caller;
    bravoKey: Caller;
    nobody: Caller;
  };
  /** Strings that only A's data contains (ids, names, secrets), to look for in answers to others. */
  acmeMarkers: string[];
}

async function expectOk(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (response.status >= 300) throw new Error(`fixture ${what}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Seeds A (via seedDatabase and the routes) and B (via the repositories). */
export async function seedTwoWorkspaces(db: Database): Promise<TwoWorkspaces> {
  const { workspaceId, ownerId } = await seedDatabase(db, {
    adminEmail: "owner@acme.test",
    adminPassword: "acme-owner-password",
    workspaceName: "Acme",
  });
  const viewer = await createUserWithPassword(
    { email: "viewer@acme.test", name: "Acme viewer", passwordHash: await hashPassword("acme-viewer-pw") },
    db,
  );
  await db.membership.create({ data: { workspaceId, userId: viewer.id, role: "viewer" } });
  const acmeOwner: Caller = { kind: "session", cookie: await sessionCookieFor(ownerId) };

  const workflow = await createWorkflow(workspaceId, {
    name: "Acme echo",
    userId: ownerId,
    draft: echoDocument("acme says hi"),
  });
  const { version } = await publishWorkflow(workflow.id, { note: "acme first", userId: ownerId });
  const workflowRow = await db.workflow.findUniqueOrThrow({ where: { id: workflow.id } });
  const apiKey = await createApiKey(
    workspaceId,
    createApiKeyBodySchema.parse({ name: "acme key", scopes: [...API_KEY_SCOPES] }),
  );

  const call = async (module: string, method: string, url: string, params: Record<string, string>, body?: unknown) => {
    const handlers = (await import(/* @vite-ignore */ `../${module}/route.ts`)) as Record<string, Handler>;
    const handler = handlers[method];
    if (!handler) throw new Error(`no ${method} in ${module}`);
    return expectOk(await invoke(handler, { method, url, params, body }, acmeOwner), `${method} ${url}`);
  };
  // A run through the published API, so it has node runs.
  const runHandlers = (await import("../v1/workflows/[slug]/run/route")) as unknown as Record<string, Handler>;
  const ran = await expectOk(
    await invoke(
      runHandlers.POST as Handler,
      {
        method: "POST",
        url: `/api/v1/workflows/${workflowRow.slug}/run`,
        params: { slug: workflowRow.slug },
        body: { inputs: {} },
      },
      { kind: "api-key", secret: apiKey.secret },
    ),
    "published run",
  );
  const runId = String(ran.run_id ?? ran.runId ?? ran.id);
  const nodeRun = await db.nodeRun.findFirstOrThrow({ where: { runId } });

  await call(
    "credentials",
    "POST",
    "/api/credentials",
    {},
    {
      name: "acme-credential",
      type: "bearer",
      secret: "acme-credential-secret",
      allowedHosts: "acme.example.test",
    },
  );
  await call(
    "providers",
    "POST",
    "/api/providers",
    {},
    {
      name: "acme-provider",
      baseURL: "https://llm.acme.test/v1",
      apiKey: "acme-provider-key",
      models: ["acme-model"],
    },
  );
  const toolSource = await call(
    "tool-sources",
    "POST",
    "/api/tool-sources",
    {},
    {
      kind: "openapi",
      name: "Acme weather",
      spec: ACME_SPEC,
    },
  );
  await call(
    "workflows/[id]/schedule",
    "PUT",
    `/api/workflows/${workflow.id}/schedule`,
    { id: workflow.id },
    {
      cron: "0 3 * * *",
      enabled: false,
    },
  );
  await call("variables", "POST", "/api/variables", {}, { name: "ACME_VARIABLE", value: "acme-variable-value" });
  const invited = await call("invitations", "POST", "/api/invitations", {}, { role: "editor" });
  const invitationId = String((invited.invitation as { id: string }).id);
  const tagged = await call("tags", "POST", "/api/tags", {}, { name: "acme-tag" });
  const tagId = String((tagged.tag as { id: string }).id);
  await call(
    "workflows/[id]/tags",
    "PUT",
    `/api/workflows/${workflow.id}/tags`,
    { id: workflow.id },
    { tagIds: [tagId] },
  );
  await call(
    "runs/[runId]/review",
    "PATCH",
    `/api/runs/${runId}/review`,
    { runId },
    {
      rating: "good",
      labels: ["acme-label"],
    },
  );
  await call("runs/[runId]/comments", "POST", `/api/runs/${runId}/comments`, { runId }, { body: "acme comment" });
  const comment = await db.runComment.findFirstOrThrow({ where: { runId } });
  const dataset = await call(
    "datasets",
    "POST",
    "/api/datasets",
    {},
    {
      name: "acme-dataset",
      workflowId: workflow.id,
      cases: [{ id: "acme-case", inputs: {} }],
    },
  );
  const datasetId = String((dataset.dataset as { id?: string } | undefined)?.id ?? dataset.id);
  const evaluation = await call(
    "evaluations",
    "POST",
    "/api/evaluations",
    {},
    {
      workflowId: workflow.id,
      datasetId,
      trials: 1,
      concurrency: 1,
    },
  );
  const evaluationId = String(evaluation.evaluationId ?? evaluation.id);
  for (let waited = 0; ; waited += 50) {
    const row = await db.evaluationRun.findUniqueOrThrow({ where: { id: evaluationId } });
    if (row.status !== "running") break;
    if (waited > 20_000) throw new Error("fixture evaluation did not finish");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // Workspace B.
  const bravoWorkspace = await db.workspace.create({ data: { name: "Bravo", slug: "bravo" } });
  const bravoOwner = await createUserWithPassword(
    { email: "owner@bravo.test", name: "Bravo owner", passwordHash: await hashPassword("bravo-owner-pw") },
    db,
  );
  await db.membership.create({ data: { workspaceId: bravoWorkspace.id, userId: bravoOwner.id, role: "owner" } });
  const bravoWorkflow = await createWorkflow(bravoWorkspace.id, {
    name: "Bravo echo",
    userId: bravoOwner.id,
    draft: echoDocument("bravo says hi"),
  });
  await publishWorkflow(bravoWorkflow.id, { note: "bravo first", userId: bravoOwner.id });
  const bravoKey = await createApiKey(
    bravoWorkspace.id,
    createApiKeyBodySchema.parse({ name: "bravo key", scopes: [...API_KEY_SCOPES] }),
  );
  const bravoSlug = (await db.workflow.findUniqueOrThrow({ where: { id: bravoWorkflow.id } })).slug;
  const bravoRan = await expectOk(
    await invoke(
      runHandlers.POST as Handler,
      { method: "POST", url: `/api/v1/workflows/${bravoSlug}/run`, params: { slug: bravoSlug }, body: { inputs: {} } },
      { kind: "api-key", secret: bravoKey.secret },
    ),
    "bravo's published run",
  );

  const acme: AcmeResources = {
    workspaceId,
    ownerId,
    viewerId: viewer.id,
    workflowId: workflow.id,
    workflowSlug: workflowRow.slug,
    nodeId: "text",
    version,
    runId,
    nodeRunId: nodeRun.id,
    apiKeyId: apiKey.key.id,
    apiKeySecret: apiKey.secret,
    credentialName: "acme-credential",
    providerName: "acme-provider",
    toolSourceId: String((toolSource.source as { id?: string } | undefined)?.id ?? toolSource.id),
    datasetId,
    evaluationId,
    variableName: "ACME_VARIABLE",
    commentId: comment.id,
    tagId,
    invitationId,
    sessionId: (await db.session.findFirstOrThrow({ where: { userId: ownerId }, orderBy: { createdAt: "asc" } })).id,
  };
  const acmeMarkers = [
    "acme",
    workspaceId,
    ownerId,
    viewer.id,
    workflow.id,
    runId,
    nodeRun.id,
    apiKey.key.id,
    acme.toolSourceId,
    datasetId,
    evaluationId,
    acme.commentId,
    acme.sessionId,
    acme.tagId,
    acme.invitationId,
  ];
  return {
    acme,
    bravo: {
      workspaceId: bravoWorkspace.id,
      ownerId: bravoOwner.id,
      workflowId: bravoWorkflow.id,
      apiKeySecret: bravoKey.secret,
      runId: String(bravoRan.run_id ?? bravoRan.runId ?? bravoRan.id),
    },
    callers: {
      acmeOwner,
      acmeKey: { kind: "api-key", secret: apiKey.secret },
      acmeViewer: { kind: "session", cookie: await sessionCookieFor(viewer.id) },
      bravoUser: { kind: "session", cookie: await sessionCookieFor(bravoOwner.id) },
      bravoKey: { kind: "api-key", secret: bravoKey.secret },
      nobody: { kind: "none" },
    },
    acmeMarkers,
  };
}

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUserWithPassword } from "@/lib/db/credentials";
import { hashPassword } from "@/lib/db/passwords";
import { createRun } from "@/lib/db/run-repository";
import { listWorkflows } from "@/lib/db/workflow-repository";
import { apiRequest, signInAs } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { POST as signUp } from "../invite/[token]/sign-up/route";
import { POST as cancelRun } from "../runs/[runId]/cancel/route";
import { GET as getRun } from "../runs/[runId]/route";
import { GET as getWorkflow, PUT as saveWorkflow } from "../workflows/[id]/route";
import { POST as startRun } from "../workflows/[id]/runs/route";
import { POST as createWorkflow } from "../workflows/route";
import { PATCH as changeRole, DELETE as removeMember } from "./[userId]/route";
import { GET, POST } from "./route";

const json = (method: string, body: unknown) => apiRequest(method, body);
const signedInAs = signInAs;
let ownerId: string;

describe("members and roles over the API", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let workflowId: string;
  let runId: string;
  let viewerId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite");
    ({ workspaceId, ownerId } = test);
    workflowId = (await listWorkflows(workspaceId))[0].id;
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: {},
      usesDemoModel: false,
    });
  });
  beforeEach(() => signedInAs(ownerId));
  afterAll(async () => test?.dispose());

  it("inviting by e-mail answers alike for known and unknown accounts, and adds nobody without consent", async () => {
    await createUserWithPassword(
      { email: "known@example.test", name: "Known", passwordHash: await hashPassword("known-password") },
      test.db,
    );
    const shapes: string[][] = [];
    for (const email of ["known@example.test", "nobody@example.test"]) {
      const response = await POST(json("POST", { email, role: "editor" }));
      expect(response.status).toBe(201);
      const body = (await response.json()) as { invitation: Record<string, unknown>; token: string; path: string };
      expect(body.path).toBe(`/invite/${body.token}`);
      shapes.push([...Object.keys(body), ...Object.keys(body.invitation)].sort());
    }
    expect(shapes[0]).toEqual(shapes[1]);
    expect(((await (await GET(apiRequest())).json()) as { members: unknown[] }).members).toHaveLength(1);
    // The old direct add (name and initial password) is gone: those fields create nothing.
    const legacy = await POST(json("POST", { email: "legacy@example.test", role: "viewer", password: "pw-123456" }));
    expect(legacy.status).toBe(201);
    expect(await test.db.user.findUnique({ where: { email: "legacy@example.test" } })).toBeNull();
  });

  it("an invited viewer joins by the link, and can look but not change, run or manage members", async () => {
    const invited = await POST(json("POST", { email: "vera@example.test", role: "viewer" }));
    const { token } = (await invited.json()) as { token: string };
    await signedInAs(undefined);
    const joined = await signUp(json("POST", { name: "Vera", email: "vera@example.test", password: "viewer-pass" }), {
      params: Promise.resolve({ token }),
    });
    expect(joined.status).toBe(201);
    viewerId = ((await joined.json()) as { membership: { user: { id: string } } }).membership.user.id;
    await signedInAs(ownerId);
    expect(((await (await GET(apiRequest())).json()) as { members: unknown[] }).members).toHaveLength(2);

    await signedInAs(viewerId);
    const params = { params: Promise.resolve({ id: workflowId }) };
    expect((await getWorkflow(apiRequest(), params)).status).toBe(200);
    expect((await getRun(apiRequest(), { params: Promise.resolve({ runId }) })).status).toBe(200);
    for (const response of [
      await createWorkflow(json("POST", { name: "Mine" })),
      await saveWorkflow(json("PUT", { draft: minimalDocument(), expectedRevision: 0 }), params),
      await startRun(json("POST", { inputs: {} }), params),
      await cancelRun(apiRequest(), { params: Promise.resolve({ runId }) }),
      await GET(apiRequest()),
    ]) {
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
  });

  it("a run of another workspace is not found, like an unknown one", async () => {
    const other = await test.db.workspace.create({ data: { name: "Elsewhere", slug: "elsewhere" } });
    const stranger = await createUserWithPassword(
      { email: "stranger@example.test", name: "S", passwordHash: await hashPassword("stranger-pass") },
      test.db,
    );
    await test.db.membership.create({ data: { workspaceId: other.id, userId: stranger.id, role: "owner" } });
    await signedInAs(stranger.id);
    const response = await getRun(apiRequest(), { params: Promise.resolve({ runId }) });
    expect(response.status).toBe(404);
    const cancel = await cancelRun(apiRequest(), { params: Promise.resolve({ runId }) });
    expect(cancel.status).toBe(404);
  });

  it("refuses to remove or demote the last owner, and removes a member", async () => {
    const owner = await test.db.membership.findFirstOrThrow({ where: { workspaceId, role: "owner" } });
    const demote = await changeRole(json("PATCH", { role: "viewer" }), {
      params: Promise.resolve({ userId: owner.userId }),
    });
    expect(demote.status).toBe(409);
    const removed = await removeMember(apiRequest(), {
      params: Promise.resolve({ userId: viewerId }),
    });
    expect(removed.status).toBe(204);
    await signedInAs(viewerId);
    const after = await getWorkflow(apiRequest(), { params: Promise.resolve({ id: workflowId }) });
    expect(after.status).toBe(401);
  });

  it("names the field of a bad member", async () => {
    const response = await POST(json("POST", { email: "not-an-email", role: "viewer" }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { field?: string; issues?: { path: string }[] } };
    expect(body.error.field ?? body.error.issues?.[0]?.path).toBe("email");
  });
});

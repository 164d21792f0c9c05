import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/db/api-key-repository";
import { listWorkflows, publishWorkflow } from "@/lib/db/workflow-repository";
import { apiRequest, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { GET } from "./route";

async function options(query = "") {
  const response = await GET(apiRequest("GET", undefined, `http://localhost/api/runs/filter-options${query}`));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// The history's pickers: workflows, the chosen workflow's versions and the API keys, by name,
// for anyone who may read runs (a viewer too), never a key's secret.
describe("run history filter options", () => {
  let test: OwnerWorkspace;
  let workflowId: string;
  let versionId: string;
  let viewerId: string;
  let ownerId: string;
  let secret: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    ownerId = test.ownerId;
    workflowId = (await listWorkflows(test.workspaceId))[0].id;
    versionId = (await publishWorkflow(workflowId, { note: "first cut", userId: ownerId })).id;
    secret = (await createApiKey(test.workspaceId, { name: "Support bot", scopes: ["run"] })).secret;
    viewerId = (
      await addTestMember(test.workspaceId, {
        email: "v@example.test",
        name: "",
        role: "viewer",
        password: "viewer-pass",
      })
    ).userId;
  });
  afterAll(async () => test?.dispose());

  it("lists workflows and keys, and the versions of the chosen workflow", async () => {
    await signInAs(viewerId);
    const all = await options();
    expect(all.status).toBe(200);
    expect(all.body.workflows).toContainEqual({ id: workflowId, name: expect.any(String) });
    expect(all.body.versions).toEqual([]);
    expect(all.body.apiKeys).toEqual([
      { id: expect.any(String), name: "Support bot", prefix: expect.any(String), revoked: false },
    ]);
    expect(JSON.stringify(all.body)).not.toContain(secret);
    const chosen = await options(`?workflowId=${workflowId}`);
    expect(chosen.body.versions).toEqual([{ id: versionId, version: 1, note: "first cut" }]);
  });

  it("answers 404 for a workflow that is not the workspace's, and 401 without a session", async () => {
    await signInAs(ownerId);
    expect((await options("?workflowId=nope")).status).toBe(404);
    await signInAs(undefined);
    expect((await options()).status).toBe(401);
  });
});

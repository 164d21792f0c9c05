import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listWorkflows } from "@/lib/db/workflow-repository";
import { apiRequest, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { DELETE, GET, PUT } from "./route";

const put = (body: unknown) => apiRequest("PUT", body, "http://localhost/x");

describe("workflow schedule routes", () => {
  let test: OwnerWorkspace;
  let workflowId: string;
  let viewerId: string;
  let owner: string;
  const params = () => ({ params: Promise.resolve({ id: workflowId }) });

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    const { workspaceId, ownerId } = test;
    workflowId = (await listWorkflows(workspaceId))[0].id;
    owner = ownerId;
    viewerId = (await addTestMember(workspaceId, { email: "viewer@example.test", role: "viewer" })).userId;
  });
  beforeEach(() => signInAs(owner));
  afterAll(async () => test?.dispose());

  it("saves a schedule, answers its next three times, and removes it", async () => {
    expect(await (await GET(apiRequest(), params())).json()).toEqual({
      schedule: null,
      nextRuns: [],
    });
    const saved = await PUT(
      put({ cron: "0 9 * * 1-5", timezone: "Europe/Athens", inputs: { topic: "daily" } }),
      params(),
    );
    expect(saved.status).toBe(200);
    const body = await saved.json();
    expect(body.schedule).toMatchObject({ cron: "0 9 * * 1-5", timezone: "Europe/Athens", enabled: true });
    expect(body.nextRuns).toHaveLength(3);
    for (const time of body.nextRuns) expect(new Date(time).getTime()).toBeGreaterThan(Date.now());
    expect((await DELETE(apiRequest(), params())).status).toBe(204);
    expect((await (await GET(apiRequest(), params())).json()).schedule).toBeNull();
  });

  it("names a bad field, and refuses viewers", async () => {
    const bad = await PUT(put({ cron: "0 25 * * *" }), params());
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("cron");
    await signInAs(viewerId);
    expect((await PUT(put({ cron: "0 9 * * *" }), params())).status).toBe(403);
    expect((await GET(apiRequest(), params())).status).toBe(200);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setSessionReader } from "@/lib/db/context";
import { addMember } from "@/lib/db/member-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { listWorkflows } from "@/lib/db/workflow-repository";
import { DELETE, GET, PUT } from "./route";

function put(body: unknown): Request {
  return new Request("http://localhost/x", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("workflow schedule routes", () => {
  let test: TestDatabase;
  let workflowId: string;
  let viewerId: string;
  const params = () => ({ params: Promise.resolve({ id: workflowId }) });

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { workspaceId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    workflowId = (await listWorkflows(workspaceId))[0].id;
    const owner = await test.db.membership.findFirstOrThrow({ where: { workspaceId } });
    viewerId = (
      await addMember(
        { workspaceId, userId: owner.userId, role: "owner" },
        { email: "viewer@example.test", role: "viewer", password: "viewer-pass" },
      )
    ).userId;
  });
  afterEach(() => setSessionReader(async () => undefined));
  afterAll(async () => test?.dispose());

  it("saves a schedule, answers its next three times, and removes it", async () => {
    expect(await (await GET(new Request("http://localhost/x"), params())).json()).toEqual({
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
    expect((await DELETE(new Request("http://localhost/x"), params())).status).toBe(204);
    expect((await (await GET(new Request("http://localhost/x"), params())).json()).schedule).toBeNull();
  });

  it("names a bad field, and refuses viewers", async () => {
    const bad = await PUT(put({ cron: "0 25 * * *" }), params());
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("cron");
    setSessionReader(async () => viewerId);
    expect((await PUT(put({ cron: "0 9 * * *" }), params())).status).toBe(403);
    expect((await GET(new Request("http://localhost/x"), params())).status).toBe(200);
  });
});

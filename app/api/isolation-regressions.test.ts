import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKey } from "@/app/api/api-keys/route";
import { PUT as replaceToolSource } from "@/app/api/tool-sources/[id]/route";
import { POST as createToolSource } from "@/app/api/tool-sources/route";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { ACME_SPEC, type Caller, invoke, seedTwoWorkspaces, type TwoWorkspaces } from "./testing/two-workspaces";

/** Focused tests of the bugs the isolation and fuzz suites found (each failed before its fix). */

let test: TestDatabase;
let world: TwoWorkspaces;

beforeAll(async () => {
  test = await createTestDatabase("sqlite");
  world = await seedTwoWorkspaces(test.db);
});
afterAll(async () => test?.dispose());

const post = (caller: Caller, body: unknown) =>
  invoke(createKey, { method: "POST", url: "/api/api-keys", params: {}, body }, caller);

describe("POST /api/api-keys with a workflow limit", () => {
  it("an unknown workflowId is 422 naming workflowId, and no key is made", async () => {
    const before = await test.db.apiKey.count();
    const response = await post(world.callers.acmeOwner, { name: "limited", workflowId: "does-not-exist" });
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ code: "unknown_workflow", field: "workflowId" });
    expect(await test.db.apiKey.count()).toBe(before);
  });

  it("another workspace's workflow is refused the same way (never 201), naming the list entry", async () => {
    const before = await test.db.apiKey.count();
    const single = await post(world.callers.bravoUser, { name: "foreign", workflowId: world.acme.workflowId });
    expect(single.status).toBe(422);
    expect((await single.json()).error).toMatchObject({ code: "unknown_workflow", field: "workflowId" });
    const listed = await post(world.callers.bravoUser, {
      name: "foreign list",
      workflowIds: [world.bravo.workflowId, world.acme.workflowId],
    });
    expect(listed.status).toBe(422);
    expect((await listed.json()).error.field).toBe("workflowIds.1");
    expect(await test.db.apiKey.count()).toBe(before);
    const own = await post(world.callers.bravoUser, { name: "own", workflowIds: [world.bravo.workflowId] });
    expect(own.status).toBe(201);
  });
});

describe("PUT /api/tool-sources/:id of another workspace", () => {
  it("is 404 before the input is checked against the caller's own tools (was 409 tool_name_collision)", async () => {
    const spec = ACME_SPEC.replaceAll("Acme", "Bravo").replaceAll("acme", "bravo");
    const created = await invoke(
      createToolSource,
      { method: "POST", url: "/api/tool-sources", params: {}, body: { kind: "openapi", name: "Bravo weather", spec } },
      world.callers.bravoUser,
    );
    expect(created.status).toBe(201);
    // The same tools as B's own source: validating first reported a collision with it.
    const response = await invoke(
      replaceToolSource,
      {
        method: "PUT",
        url: `/api/tool-sources/${world.acme.toolSourceId}`,
        params: { id: world.acme.toolSourceId },
        body: { kind: "openapi", name: "Renamed", spec },
      },
      world.callers.bravoUser,
    );
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("tool_source_not_found");
    const stored = await test.db.toolSource.findUniqueOrThrow({ where: { id: world.acme.toolSourceId } });
    expect(stored.name).toBe("Acme weather");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as unknownApi } from "@/app/api/[...path]/route";
import { GET as listWorkflowsRoute } from "@/app/api/workflows/route";
import { createApiKey, verifyApiKey } from "../../db/api-key-repository";
import { createUserWithPassword } from "../../db/credentials";
import { hashPassword } from "../../db/passwords";
import { createRun } from "../../db/run-repository";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, type TestDatabase } from "../../db/testing/test-database";
import { publishWorkflow as publishRow } from "../../db/workflow-repository";
import { compileWorkflow } from "../../workflow/compile";
import { minimalDocument } from "../../workflow/testing/build-document";
import { getPublicRun, startPublishedRun } from "../runs";
import { apiRequest, signInAs } from "../testing/api-client";
import { listWorkflows, loadWorkflow, saveDraft } from "../workflows";
import { createKey, listProviders } from "../workspace-settings";
import type { ApiKeyPrincipal, UserPrincipal } from "./principal";
import type { WorkspaceRole } from "./roles";

/** The access rules end to end: real services on SQLite, one principal of each kind. */
describe("access through the services", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowA: { id: string; slug: string };
  let workflowB: { id: string; slug: string };
  let foreignWorkflowId: string;
  let editorRunId: string;
  const people: Partial<Record<WorkspaceRole, UserPrincipal>> = {};

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const seeded = await seedDatabase(test.db, {
      adminEmail: "o@example.test",
      adminPassword: "pw",
      workspaceName: "A",
    });
    workspaceId = seeded.workspaceId;
    people.owner = { kind: "user", userId: seeded.ownerId, workspaceId, role: "owner" };
    for (const role of ["admin", "editor", "viewer"] as const) {
      const row = await createUserWithPassword(
        { email: `${role}@example.test`, name: role, passwordHash: await hashPassword("password-1") },
        test.db,
      );
      await test.db.membership.create({ data: { workspaceId, userId: row.id, role } });
      people[role] = { kind: "user", userId: row.id, workspaceId, role };
    }
    const workflows = await test.db.workflow.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
    workflowA = workflows[0]!;
    workflowB = workflows[1]!;
    for (const workflow of [workflowA, workflowB]) {
      await test.db.workflow.update({ where: { id: workflow.id }, data: { draft: minimalDocument() as object } });
      await publishRow(workflow.id, { note: "", userId: seeded.ownerId });
    }
    const other = await test.db.workspace.create({ data: { name: "B", slug: "b" } });
    foreignWorkflowId = (
      await test.db.workflow.create({ data: { workspaceId: other.id, name: "Theirs", slug: "theirs", draft: {} } })
    ).id;
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    editorRunId = await createRun({
      workspaceId,
      workflowId: workflowA.id,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: {},
      usesDemoModel: false,
    });
  });
  afterAll(async () => test?.dispose());

  it("no principal: services and routes refuse with 401", async () => {
    await expect(listWorkflows(null)).rejects.toMatchObject({ code: "unauthorized" });
    await signInAs(undefined);
    const response = await listWorkflowsRoute(apiRequest());
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it("viewer reads but does not edit; editor edits but has no settings; admin has settings", async () => {
    const draft = (await loadWorkflow(people.viewer!, workflowA.id)).draft;
    await expect(saveDraft(people.viewer!, workflowA.id, { draft, expectedRevision: 0 })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(saveDraft(people.editor!, workflowA.id, { draft, expectedRevision: 0 })).resolves.toEqual({
      revision: 1,
    });
    await expect(listProviders(people.editor!)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listProviders(people.admin!)).resolves.toMatchObject({ providers: [] });
  });

  it("another workspace's workflow is not found, and an API key cannot be limited to it", async () => {
    await expect(loadWorkflow(people.owner!, foreignWorkflowId)).rejects.toMatchObject({ code: "workflow_not_found" });
    await expect(
      createKey(people.admin!, { name: "k", scopes: ["run"], workflowId: foreignWorkflowId }),
    ).rejects.toMatchObject({
      // The same answer as for an id that does not exist, so ids of other workspaces cannot be probed.
      code: "unknown_workflow",
    });
    await expect(createKey(people.admin!, { name: "k", scopes: ["run"], workflowId: "nope" })).rejects.toMatchObject({
      code: "unknown_workflow",
    });
  });

  it("an API key limited to one workflow runs it, and sees neither other workflows nor editor runs", async () => {
    const { secret } = await createApiKey(workspaceId, { name: "limited", scopes: ["run"], workflowId: workflowA.id });
    const grant = (await verifyApiKey(secret))!;
    const principal: ApiKeyPrincipal = { kind: "api-key", ...grant };
    const started = await startPublishedRun(principal, workflowA.slug, { inputs: { query: "hi" } });
    await started.done;
    expect((await getPublicRun(principal, started.runId)).status).toBe("succeeded");
    await expect(startPublishedRun(principal, workflowB.slug, { inputs: {} })).rejects.toMatchObject({
      code: "workflow_not_found",
    });
    await expect(getPublicRun(principal, editorRunId)).rejects.toMatchObject({ code: "run_not_found" });
  });

  it("unknown /api paths answer JSON 404 with a code", async () => {
    const response = await unknownApi(new Request("http://localhost/api/nothing/here"));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "route_not_found" } });
  });
});

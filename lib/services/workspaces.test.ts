import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/run-repository";
import { testProviders } from "../db/testing/test-database";
import { compileWorkflow } from "../workflow/compile";
import { minimalDocument } from "../workflow/testing/build-document";
import type { UserPrincipal } from "./access/principal";
import { principalFromSessionToken, setActiveWorkspace, startSession } from "./access/session";
import { listAuditLog } from "./audit-log";
import { getRunDetail, listRuns } from "./runs";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";
import { createWorkflow, listWorkflows, loadWorkflow } from "./workflows";
import { createHttpCredential, createKey, listHttpCredentials, listKeys, revokeKey } from "./workspace-settings";
import { createWorkspace, listWorkspaces, renameWorkspace, workspaceNameSchema } from "./workspaces";

const named = (name: string) => workspaceNameSchema.parse({ name });

describe.each(testProviders())("workspaces on %s", (provider) => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider, { workspaceName: "Team A" });
    owner = test.owner;
  });
  afterAll(async () => test?.dispose());

  /** A real session of `user`, switched to `workspaceId` (setActiveWorkspace), as the next request sees it. */
  async function switchTo(user: UserPrincipal, workspaceId: string): Promise<UserPrincipal> {
    const { token } = await startSession(user.userId, { ipAddress: "127.0.0.1", userAgent: "test" });
    await setActiveWorkspace(await principalFromSessionToken(token), workspaceId);
    const principal = await principalFromSessionToken(token);
    if (!principal) throw new Error("session did not resolve");
    return principal;
  }

  it("validates names, and creates workspaces owned by their creator with unique slugs", async () => {
    expect(workspaceNameSchema.safeParse({ name: "   " }).success).toBe(false);
    expect(workspaceNameSchema.safeParse({ name: "x".repeat(81) }).success).toBe(false);
    expect(workspaceNameSchema.safeParse({ name: "bad\u0007name" }).success).toBe(false);
    const first = await createWorkspace(owner, named("  Team B "));
    const second = await createWorkspace(owner, named("Team B"));
    expect(first).toMatchObject({
      name: "Team B",
      slug: "team-b",
      role: "owner",
      current: false,
      manageSettings: true,
    });
    expect(second.slug).toBe("team-b-2");
    const mine = await listWorkspaces(owner);
    expect(mine.every((row) => row.manageSettings)).toBe(true);
    expect(mine.map((row) => [row.name, row.role, row.current])).toEqual([
      ["Team A", "owner", true],
      ["Team B", "owner", false],
      ["Team B", "owner", false],
    ]);
    const created = await listAuditLog(await switchTo(owner, first.id), { actions: ["workspace."] });
    expect(created.map((line) => [line.action, line.target?.id])).toEqual([["workspace.created", first.id]]);
    // API keys and the server have no workspaces of their own.
    await expect(
      createWorkspace(
        { kind: "api-key", keyId: "k", workspaceId: owner.workspaceId, scopes: ["run"], workflowIds: null },
        named("K"),
      ),
    ).rejects.toMatchObject({ code: "api_key_scope_missing" });
  });

  it("renames the current workspace for owners and admins only; another workspace is not found", async () => {
    const [, teamB] = await listWorkspaces(owner);
    const inB = await switchTo(owner, teamB!.id);
    expect(await renameWorkspace(inB, teamB!.id, named("Team Beta"))).toEqual({ id: teamB!.id, name: "Team Beta" });
    await expect(renameWorkspace({ ...inB, role: "editor" }, teamB!.id, named("No"))).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(renameWorkspace(owner, teamB!.id, named("From A"))).rejects.toMatchObject({
      code: "workspace_not_found",
    });
    const lines = await listAuditLog(inB, { actions: ["workspace.renamed"] });
    expect(lines.map((line) => line.detail)).toEqual([{ from: "Team B", to: "Team Beta" }]);
  });

  it("isolates a two-workspace user: only the current workspace's workflows, runs, keys and credentials", async () => {
    const [, teamB] = await listWorkspaces(owner);
    const inB = await switchTo(owner, teamB!.id);
    expect(inB).toMatchObject({ workspaceId: teamB!.id, role: "owner" });
    expect((await listWorkspaces(inB)).find((row) => row.current)?.id).toBe(teamB!.id);
    // Not a member: the switch is refused and the session stays where it was.
    const stranger = await test.db.workspace.create({ data: { name: "Stranger", slug: `stranger-${provider}` } });
    await expect(setActiveWorkspace(inB, stranger.id)).rejects.toMatchObject({ code: "workspace_not_found" });
    const workflowB = await createWorkflow(inB, { name: "Only in B" });
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    const runB = await createRun({
      workspaceId: teamB!.id,
      workflowId: workflowB.id,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: {},
      usesDemoModel: false,
    });
    const keyB = await createKey(inB, { name: "b-key", scopes: ["run"] });
    await createHttpCredential(inB, {
      name: "b-secret",
      type: "bearer",
      secret: "s3cret",
      allowedHosts: "b.example.test",
    });

    // In B: only B's.
    expect((await listWorkflows(inB)).map((row) => row.name)).toEqual(["Only in B"]);
    expect((await listRuns(inB, {})).runs.map((run) => run.id)).toEqual([runB]);
    expect((await listKeys(inB)).map((key) => key.name)).toEqual(["b-key"]);
    expect((await listHttpCredentials(inB)).map((credential) => credential.name)).toEqual(["b-secret"]);

    // Back in A: none of B's, and B's ids are not found.
    const inA = await switchTo(owner, owner.workspaceId);
    const namesInA = (await listWorkflows(inA)).map((row) => row.name);
    expect(namesInA.length).toBeGreaterThan(0);
    expect(namesInA).not.toContain("Only in B");
    expect((await listRuns(inA, {})).runs.map((run) => run.id)).not.toContain(runB);
    expect((await listKeys(inA)).map((key) => key.name)).not.toContain("b-key");
    expect((await listHttpCredentials(inA)).map((credential) => credential.name)).not.toContain("b-secret");
    await expect(loadWorkflow(inA, workflowB.id)).rejects.toMatchObject({ code: "workflow_not_found" });
    await expect(getRunDetail(inA, runB)).rejects.toMatchObject({ code: "run_not_found" });
    await expect(listRuns(inA, { workflowId: workflowB.id })).rejects.toMatchObject({ code: "workflow_not_found" });
    await expect(revokeKey(inA, keyB.key.id)).rejects.toMatchObject({ code: "api_key_not_found" });
    expect((await listKeys(inB)).map((key) => key.name)).toEqual(["b-key"]);
  });
});

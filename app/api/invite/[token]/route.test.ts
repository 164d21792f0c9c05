import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { DELETE as revoke } from "../../invitations/[id]/route";
import { POST as createInvitation, GET as listInvitations } from "../../invitations/route";
import { PATCH as renameWorkspace } from "../../workspaces/[id]/route";
import { POST as createWorkspace, GET as listWorkspaces } from "../../workspaces/route";
import { POST as accept } from "./accept/route";
import { GET as preview } from "./route";
import { POST as signUp } from "./sign-up/route";

type ErrorBody = { error: { code: string; field?: string } };

async function errorOf(response: Response): Promise<[number, string]> {
  expect(response.headers.get("content-type")).toContain("application/json");
  return [response.status, ((await response.json()) as ErrorBody).error.code];
}

describe("workspace and invitation routes", () => {
  let test: TestDatabase;
  let ownerId: string;
  let workspaceId: string;
  let outsiderId: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    ({ workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "owner@example.test",
      adminPassword: "secret-password",
      workspaceName: "Team",
    }));
    const elsewhere = await test.db.workspace.create({ data: { name: "Elsewhere", slug: "elsewhere" } });
    outsiderId = (await addTestMember(elsewhere.id, { email: "out@example.test", role: "owner" })).userId;
  });
  beforeEach(() => signInAs(ownerId));
  afterAll(async () => test?.dispose());

  async function newLink(body: Record<string, unknown> = { role: "viewer" }): Promise<{ token: string; id: string }> {
    await signInAs(ownerId);
    const response = await createInvitation(apiRequest("POST", body));
    expect(response.status).toBe(201);
    const created = (await response.json()) as { token: string; invitation: { id: string } };
    return { token: created.token, id: created.invitation.id };
  }

  it("creates, lists and renames workspaces; bad names are 400 naming the field", async () => {
    const created = await createWorkspace(apiRequest("POST", { name: "Second" }));
    expect(created.status).toBe(201);
    const { workspace } = (await created.json()) as { workspace: { id: string; role: string } };
    expect(workspace.role).toBe("owner");
    const listed = (await (await listWorkspaces(apiRequest())).json()) as { workspaces: { name: string }[] };
    expect(listed.workspaces.map((row) => row.name)).toEqual(["Team", "Second"]);
    const bad = await createWorkspace(apiRequest("POST", { name: "" }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error).toMatchObject({ code: "invalid_request", field: "name" });
    const renamed = await renameWorkspace(apiRequest("PATCH", { name: "Team One" }), pathParams({ id: workspaceId }));
    expect(renamed.status).toBe(200);
    expect(
      await errorOf(await renameWorkspace(apiRequest("PATCH", { name: "X" }), pathParams({ id: workspace.id }))),
    ).toEqual([404, "workspace_not_found"]);
    await signInAs(undefined);
    expect((await listWorkspaces(apiRequest())).status).toBe(401);
  });

  it("answers 404, 410 and 409 with stable JSON codes", async () => {
    expect(await errorOf(await preview(apiRequest(), pathParams({ token: "u".repeat(43) })))).toEqual([
      404,
      "invitation_not_found",
    ]);

    const used = await newLink();
    await signInAs(outsiderId);
    const first = await accept(apiRequest("POST"), pathParams({ token: used.token }));
    expect(first.status).toBe(200);
    expect(await errorOf(await accept(apiRequest("POST"), pathParams({ token: used.token })))).toEqual([
      410,
      "invitation_used",
    ]);

    const again = await newLink();
    await signInAs(outsiderId);
    expect(await errorOf(await accept(apiRequest("POST"), pathParams({ token: again.token })))).toEqual([
      409,
      "member_exists",
    ]);

    const revoked = await newLink();
    expect((await revoke(apiRequest("DELETE"), pathParams({ id: revoked.id }))).status).toBe(204);
    expect(await errorOf(await preview(apiRequest(), pathParams({ token: revoked.token })))).toEqual([
      410,
      "invitation_revoked",
    ]);

    const expired = await newLink();
    await test.db.invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await signInAs(undefined);
    const body = { name: "Late", email: "late@example.test", password: "late-password" };
    expect(await errorOf(await signUp(apiRequest("POST", body), pathParams({ token: expired.token })))).toEqual([
      410,
      "invitation_expired",
    ]);
  });

  it("an e-mail-bound link refuses other accounts with 403; accepting needs a session", async () => {
    const named = await newLink({ role: "editor", email: "named@example.test" });
    await signInAs(outsiderId);
    expect(await errorOf(await accept(apiRequest("POST"), pathParams({ token: named.token })))).toEqual([
      403,
      "invitation_email_mismatch",
    ]);
    await signInAs(undefined);
    expect(await errorOf(await accept(apiRequest("POST"), pathParams({ token: named.token })))).toEqual([
      401,
      "unauthorized",
    ]);
    const shown = (await (await preview(apiRequest(), pathParams({ token: named.token }))).json()) as {
      invitation: { workspaceName: string; role: string };
    };
    expect(shown.invitation).toMatchObject({ workspaceName: "Team One", role: "editor" });
    const joined = await signUp(
      apiRequest("POST", { name: "Named", email: "named@example.test", password: "named-password" }),
      pathParams({ token: named.token }),
    );
    expect(joined.status).toBe(201);
    const taken = await newLink();
    await signInAs(undefined);
    expect(
      await errorOf(
        await signUp(
          apiRequest("POST", { name: "N", email: "named@example.test", password: "named-password" }),
          pathParams({ token: taken.token }),
        ),
      ),
    ).toEqual([409, "account_exists"]);
  });

  it("only owners and admins list and create invitations", async () => {
    const editorId = (await addTestMember(workspaceId, { email: "ed@example.test", role: "editor" })).userId;
    await signInAs(editorId);
    expect(await errorOf(await listInvitations(apiRequest()))).toEqual([403, "forbidden"]);
    expect(await errorOf(await createInvitation(apiRequest("POST", { role: "viewer" })))).toEqual([403, "forbidden"]);
  });
});

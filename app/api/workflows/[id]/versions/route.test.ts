import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserPrincipal } from "@/lib/services/access/principal";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { createWorkflow, publishWorkflow } from "@/lib/services/workflows";
import { PUT as putServed } from "../served-version/route";
import { POST as restore } from "./[version]/restore/route";
import { GET as getVersion } from "./[version]/route";
import { GET as diff } from "./diff/route";
import { GET as list } from "./route";

describe("workflow version routes", () => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;
  let viewerId: string;
  let id: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite");
    owner = test.owner;
    viewerId = (await addTestMember(owner.workspaceId, { email: "v@example.test", name: "V", role: "viewer" })).userId;
    id = (await createWorkflow(owner, { name: "Empty" })).id;
    await publishWorkflow(owner, id, "v1 note").catch(() => undefined);
  });
  afterAll(async () => test?.dispose());

  it("answers 401 without a session", async () => {
    await signInAs(undefined);
    expect((await list(apiRequest(), pathParams({ id }))).status).toBe(401);
  });

  it("lists for a viewer, but pin and restore are 403 for them", async () => {
    await signInAs(viewerId);
    const listed = await list(apiRequest(), pathParams({ id }));
    expect(listed.status).toBe(200);
    expect((await putServed(apiRequest("PUT", { version: 1 }), pathParams({ id }))).status).toBe(403);
    expect((await restore(apiRequest("POST", {}), pathParams({ id, version: "1" }))).status).toBe(403);
  });

  it("names bad versions and queries (400) and unknown versions (404)", async () => {
    await signInAs(owner.userId);
    const bad = await getVersion(apiRequest(), pathParams({ id, version: "abc" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: "invalid_path", field: "version" });
    const missing = await getVersion(apiRequest(), pathParams({ id, version: "5" }));
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toContain("version 5");
    const noTo = await diff(
      apiRequest("GET", undefined, `http://localhost/api/workflows/${id}/versions/diff?from=1`),
      pathParams({ id }),
    );
    expect(noTo.status).toBe(400);
    expect((await noTo.json()).error.field).toBe("to");
    expect((await putServed(apiRequest("PUT", { version: 5 }), pathParams({ id }))).status).toBe(404);
    expect((await putServed(apiRequest("PUT", {}), pathParams({ id }))).status).toBe(400);
  });
});

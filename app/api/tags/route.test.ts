import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProviders } from "@/lib/db/testing/test-database";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { DELETE as DELETE_WORKFLOW } from "../workflows/[id]/route";
import { GET as GET_WORKFLOW_TAGS, PUT as PUT_WORKFLOW_TAGS } from "../workflows/[id]/tags/route";
import { DELETE, PATCH } from "./[id]/route";
import { GET, POST } from "./route";

const url = "http://localhost/api/tags";

describe.each(testProviders())("workflow tag routes on %s", (provider) => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let ownerId: string;
  let viewerId: string;
  let workflowIds: string[];

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider, { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId, ownerId } = test);
    viewerId = (
      await addTestMember(workspaceId, {
        email: "vi@example.test",
        name: "Vi",
        role: "viewer",
        password: "viewer-password",
      })
    ).userId;
    workflowIds = (await test.db.workflow.findMany({ where: { workspaceId }, select: { id: true } })).map(
      (row) => row.id,
    );
  });
  afterAll(async () => test?.dispose());

  const create = async (body: unknown) => POST(apiRequest("POST", body, url));
  const setTags = async (workflowId: string, tagIds: unknown) =>
    PUT_WORKFLOW_TAGS(
      apiRequest("PUT", { tagIds }, `http://localhost/api/workflows/${workflowId}/tags`),
      pathParams({ id: workflowId }),
    );

  it("creates, lists, renames and deletes tags; a taken name (any case) is 409 naming name", async () => {
    const created = await create({ name: " Support ", color: "blue" });
    expect(created.status).toBe(201);
    const support = (await created.json()).tag;
    expect(support).toMatchObject({ name: "Support", color: "blue", workflowCount: 0 });

    for (const name of ["Support", "support"]) {
      const again = await create({ name });
      expect(again.status).toBe(409);
      const error = (await again.json()).error;
      expect(error.code).toBe("workflow_tag_name_taken");
      expect(error.issues).toEqual([{ path: "name", message: "A tag with this name already exists." }]);
    }

    const ops = (await (await create({ name: "Ops" })).json()).tag;
    expect(ops.color).toBe("gray");
    const clash = await PATCH(apiRequest("PATCH", { name: "SUPPORT" }, `${url}/${ops.id}`), pathParams({ id: ops.id }));
    expect(clash.status).toBe(409);
    const renamed = await PATCH(
      apiRequest("PATCH", { name: "Operations", color: "green" }, `${url}/${ops.id}`),
      pathParams({ id: ops.id }),
    );
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).tag).toMatchObject({ name: "Operations", color: "green" });
    // Its own name in another case is not a clash with itself.
    const recased = await PATCH(
      apiRequest("PATCH", { name: "operations" }, `${url}/${ops.id}`),
      pathParams({ id: ops.id }),
    );
    expect(recased.status).toBe(200);

    const listed = (await (await GET(apiRequest())).json()).tags;
    expect(listed.map((tag: { name: string }) => tag.name)).toEqual(["operations", "Support"]);

    expect((await DELETE(apiRequest("DELETE"), pathParams({ id: ops.id }))).status).toBe(204);
    expect((await DELETE(apiRequest("DELETE"), pathParams({ id: ops.id }))).status).toBe(404);
    const missing = await PATCH(apiRequest("PATCH", { name: "x" }, `${url}/nope`), pathParams({ id: "nope" }));
    expect(missing.status).toBe(404);
    await DELETE(apiRequest("DELETE"), pathParams({ id: support.id }));
  });

  it("answers 400 naming the field for a bad name, colour or tag list", async () => {
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(41) }, "name"],
      [{}, "name"],
      [{ name: "ok", color: "pink" }, "color"],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await response.json()).error;
      expect(error.field ?? error.issues?.[0]?.path).toBe(field);
    }
    const empty = await PATCH(apiRequest("PATCH", {}, `${url}/x`), pathParams({ id: "x" }));
    expect(empty.status).toBe(400);

    const notList = await setTags(workflowIds[0]!, "a");
    expect(notList.status).toBe(400);
    const notListError = (await notList.json()).error;
    expect(notListError.field ?? notListError.issues?.[0]?.path).toBe("tagIds");
  });

  it("sets a workflow's tags, counts them, rejects unknown ids naming the index, and cleans up on delete", async () => {
    const alpha = (await (await create({ name: "alpha" })).json()).tag;
    const beta = (await (await create({ name: "beta", color: "red" })).json()).tag;
    const [first, second] = workflowIds as [string, string];

    const set = await setTags(first, [beta.id, alpha.id, alpha.id]);
    expect(set.status).toBe(200);
    expect((await set.json()).tags.map((tag: { name: string }) => tag.name)).toEqual(["alpha", "beta"]);
    const read = await GET_WORKFLOW_TAGS(apiRequest(), pathParams({ id: first }));
    expect((await read.json()).tags.map((tag: { name: string }) => tag.name)).toEqual(["alpha", "beta"]);
    await setTags(second, [alpha.id]);
    let listed = (await (await GET(apiRequest())).json()).tags;
    expect(listed.find((tag: { id: string }) => tag.id === alpha.id).workflowCount).toBe(2);

    const unknown = await setTags(first, [alpha.id, "not-a-tag"]);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.issues).toEqual([{ path: "tagIds.1", message: "This tag does not exist." }]);

    // Another workspace's tag is "not found" too, and the workflow's set is unchanged.
    const other = await test.db.workspace.create({ data: { name: "Other", slug: "other" } });
    const theirs = await test.db.workflowTag.create({ data: { workspaceId: other.id, name: "theirs" } });
    expect((await setTags(first, [theirs.id])).status).toBe(404);
    expect(await test.db.workflowTagLink.count({ where: { workflowId: first } })).toBe(2);

    const unknownWorkflow = await setTags("no-such-workflow", []);
    expect(unknownWorkflow.status).toBe(404);

    expect((await setTags(first, [])).status).toBe(200);
    expect(await test.db.workflowTagLink.count({ where: { workflowId: first } })).toBe(0);

    // Deleting the tag unlinks it; deleting a workflow removes its links.
    await setTags(first, [beta.id]);
    await DELETE(apiRequest("DELETE"), pathParams({ id: beta.id }));
    expect(await test.db.workflowTagLink.count({ where: { workflowId: first } })).toBe(0);
    expect((await DELETE_WORKFLOW(apiRequest("DELETE"), pathParams({ id: second }))).status).toBe(204);
    listed = (await (await GET(apiRequest())).json()).tags;
    expect(listed.find((tag: { id: string }) => tag.id === alpha.id).workflowCount).toBe(0);
  });

  it("lets viewers read tags but not change them or tag a workflow", async () => {
    const tag = (await (await create({ name: "viewer-test" })).json()).tag;
    await signInAs(viewerId);
    try {
      expect((await GET(apiRequest())).status).toBe(200);
      expect((await create({ name: "nope" })).status).toBe(403);
      expect((await PATCH(apiRequest("PATCH", { name: "y" }), pathParams({ id: tag.id }))).status).toBe(403);
      expect((await DELETE(apiRequest("DELETE"), pathParams({ id: tag.id }))).status).toBe(403);
      expect((await setTags(workflowIds[0]!, [tag.id])).status).toBe(403);
    } finally {
      await signInAs(ownerId);
    }
  });

  it("needs a session", async () => {
    await signInAs(undefined);
    try {
      expect((await GET(apiRequest())).status).toBe(401);
    } finally {
      await signInAs(ownerId);
    }
  });
});

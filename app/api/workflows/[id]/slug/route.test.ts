import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserPrincipal } from "@/lib/services/access/principal";
import { apiRequest, pathParams } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { createWorkflow, loadWorkflow, publishWorkflow, saveDraft } from "@/lib/services/workflows";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { PUT } from "./route";

describe("workflow slugs", () => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
    owner = test.owner;
  });
  afterAll(async () => test?.dispose());

  const put = (id: string, body: unknown) =>
    PUT(apiRequest("PUT", body, `http://localhost/api/workflows/${id}/slug`), pathParams({ id }));

  it("follows the name until the first publish, then stays fixed and is changed only explicitly", async () => {
    const { id } = await createWorkflow(owner, { name: "Untitled workflow", draft: minimalDocument() });
    const first = await loadWorkflow(owner, id);
    expect(first.slug).toBe("untitled-workflow");
    const renamed = await saveDraft(owner, id, {
      draft: minimalDocument(),
      expectedRevision: first.draftRevision,
      name: "Ticket triage",
    });
    expect(renamed.slug).toBe("ticket-triage");

    await publishWorkflow(owner, id, "");
    const published = await loadWorkflow(owner, id);
    const again = await saveDraft(owner, id, {
      draft: minimalDocument(),
      expectedRevision: published.draftRevision,
      name: "Ticket triage v2",
    });
    expect(again.slug).toBeUndefined();
    expect((await loadWorkflow(owner, id)).slug).toBe("ticket-triage");

    const response = await put(id, { slug: "triage" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ slug: "triage" });
    expect((await loadWorkflow(owner, id)).slug).toBe("triage");
  });

  it("answers 409 naming the field for a slug another workflow uses, and 400 for a malformed one", async () => {
    const { id: taken } = await createWorkflow(owner, { name: "Billing bot", draft: minimalDocument() });
    const { id } = await createWorkflow(owner, { name: "Support bot", draft: minimalDocument() });
    const clash = await put(id, { slug: (await loadWorkflow(owner, taken)).slug });
    expect(clash.status).toBe(409);
    const body = await clash.json();
    expect(body.error.code).toBe("workflow_slug_taken");
    expect(body.error.issues).toEqual([{ path: "slug", message: expect.any(String) }]);

    for (const slug of ["Has Spaces", "-dash", "a--b", ""]) {
      const bad = await put(id, { slug });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.field).toBe("slug");
    }
    // Setting the slug it already has is not a clash.
    const same = await put(id, { slug: (await loadWorkflow(owner, id)).slug });
    expect(same.status).toBe(200);
  });

  it("gives imported and created twins unique names and slugs", async () => {
    const one = await createWorkflow(owner, { name: "Research agent", draft: minimalDocument() });
    const two = await createWorkflow(owner, { name: "Research agent", draft: minimalDocument() });
    const [first, second] = [await loadWorkflow(owner, one.id), await loadWorkflow(owner, two.id)];
    expect(second.name).toBe("Research agent (2)");
    expect(second.slug).not.toBe(first.slug);
  });
});

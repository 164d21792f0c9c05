import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "@/lib/db/run-repository";
import { testProviders } from "@/lib/db/testing/test-database";
import { listWorkflows } from "@/lib/db/workflow-repository";
import type { UserPrincipal } from "@/lib/services/access/principal";
import { RunService } from "@/lib/services/run-service";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { testDocument, testEdge, testNode } from "@/lib/workflow/testing/build-document";
import { DELETE, PUT } from "./[name]/route";
import { GET, POST } from "./route";

const url = "http://localhost/api/variables";

describe.each(testProviders())("workspace variable routes on %s", (provider) => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let ownerId: string;
  let editorId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider, { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId, ownerId } = test);
    const owner: UserPrincipal = { kind: "user", workspaceId, userId: ownerId, role: "owner" };
    editorId = (await addTestMember(owner.workspaceId, { email: "ed@example.test", name: "Ed", role: "editor" }))
      .userId;
  });
  afterAll(async () => test?.dispose());

  it("adds, lists, changes and deletes a variable; a taken name is 409 naming the field", async () => {
    const created = await POST(apiRequest("POST", { name: "REGION", value: "eu-west" }, url));
    expect(created.status).toBe(201);
    expect((await created.json()).variable).toMatchObject({ name: "REGION", value: "eu-west" });

    const again = await POST(apiRequest("POST", { name: "REGION", value: "x" }, url));
    expect(again.status).toBe(409);
    const conflict = await again.json();
    expect(conflict.error.code).toBe("workspace_variable_name_taken");
    expect(conflict.error.issues).toEqual([{ path: "name", message: "This name is already used." }]);

    const changed = await PUT(apiRequest("PUT", { value: "us-east" }, `${url}/REGION`), pathParams({ name: "REGION" }));
    expect(changed.status).toBe(200);
    expect((await changed.json()).variable.value).toBe("us-east");

    const listed = await (await GET(apiRequest())).json();
    expect(listed.variables).toEqual([expect.objectContaining({ name: "REGION", value: "us-east" })]);

    expect((await DELETE(apiRequest("DELETE"), pathParams({ name: "REGION" }))).status).toBe(204);
    expect((await DELETE(apiRequest("DELETE"), pathParams({ name: "REGION" }))).status).toBe(404);
    const missing = await PUT(apiRequest("PUT", { value: "a" }, `${url}/NOPE`), pathParams({ name: "NOPE" }));
    expect(missing.status).toBe(404);
  });

  it("answers 400 naming the field for a bad name or an oversized value", async () => {
    for (const [body, field] of [
      [{ name: "has-dash", value: "v" }, "name"],
      [{ name: "1ST", value: "v" }, "name"],
      [{ name: "", value: "v" }, "name"],
      [{ name: "BIG", value: "x".repeat(4001) }, "value"],
      [{ name: "NOVALUE" }, "value"],
    ] as const) {
      const response = await POST(apiRequest("POST", body, url));
      expect(response.status).toBe(400);
      const error = (await response.json()).error;
      expect(error.field ?? error.issues?.[0]?.path).toBe(field);
    }
    const big = await PUT(apiRequest("PUT", { value: "x".repeat(4001) }, `${url}/A`), pathParams({ name: "A" }));
    expect(big.status).toBe(400);
    expect((await big.json()).error.field).toBe("value");
  });

  it("lets editors read the variables but not change them", async () => {
    await signInAs(editorId);
    try {
      expect((await GET(apiRequest())).status).toBe(200);
      expect((await POST(apiRequest("POST", { name: "X", value: "1" }, url))).status).toBe(403);
      expect((await DELETE(apiRequest("DELETE"), pathParams({ name: "X" }))).status).toBe(403);
    } finally {
      await signInAs(ownerId);
    }
  });

  // RunService picks its recorder's SQL dialect from DATABASE_URL, not from the test database, so
  // runs are exercised on SQLite only (as in lib/services/run-service.test.ts).
  it.skipIf(provider === "postgresql")(
    "gives runs {{env.NAME}} from the workspace, over the server's TRELLIS_PUBLIC_ value",
    async () => {
      await POST(apiRequest("POST", { name: "GREETING", value: "Bonjour" }, url));
      process.env.TRELLIS_PUBLIC_GREETING = "Hello";
      process.env.TRELLIS_PUBLIC_PLACE = "Paris";
      try {
        const document = testDocument(
          [
            testNode("start", "start", { inputs: [] }),
            testNode("say", "template", { template: "{{env.GREETING}} from {{env.PLACE}}" }),
            testNode("end", "end", { outputs: [{ name: "answer", value: "{{say.text}}" }] }),
          ],
          [testEdge("start", "say"), testEdge("say", "end")],
        );
        const workflowId = (await listWorkflows(workspaceId))[0]!.id;
        const { runId, done } = await new RunService().startSingleNode({
          workspaceId,
          workflowId,
          document,
          nodeId: "say",
          variables: {},
        });
        await done;
        const result = await getRunWithNodeRuns(runId);
        expect(result?.run.status, `${result?.run.errorCode} ${result?.run.errorMessage}`).toBe("succeeded");
        expect(result?.nodeRuns[0].outputs).toEqual({ text: "Bonjour from Paris" });
      } finally {
        delete process.env.TRELLIS_PUBLIC_GREETING;
        delete process.env.TRELLIS_PUBLIC_PLACE;
      }
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/db/run-repository";
import { listWorkflows } from "@/lib/db/workflow-repository";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { GET } from "./route";

const SECRET = "sk-export-test-secret-0123456789";

describe("run export API", () => {
  let test: OwnerWorkspace;
  const failed: string[] = [];
  let previousKey: string | undefined;

  beforeAll(async () => {
    previousKey = process.env.OPENAI_API_KEY;
    // The default provider's key is one of the workspace's secrets the redactor masks.
    process.env.OPENAI_API_KEY = SECRET;
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    const { workspaceId } = test;
    const [workflow] = await listWorkflows(workspaceId);
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    for (let index = 0; index < 5; index++) {
      const id = await createRun({
        workspaceId,
        workflowId: workflow.id,
        trigger: "editor",
        compiled: compiled.workflow,
        inputs: { question: `pasted key ${SECRET} number ${index}` },
        usesDemoModel: false,
      });
      if (index % 2 === 0) {
        await test.db.run.update({ where: { id }, data: { status: "failed", errorCode: "boom" } });
        failed.push(id);
      }
    }
  });
  afterAll(async () => {
    process.env.OPENAI_API_KEY = previousKey;
    await test?.dispose();
  });

  it("streams the filtered runs as JSON Lines with secrets masked", async () => {
    const response = await GET(apiRequest("GET", undefined, "http://localhost/api/runs/export?status=failed"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; status: string; inputs: { question: string } });
    expect(lines.map((line) => line.id).sort()).toEqual([...failed].sort());
    expect(lines.every((line) => line.status === "failed")).toBe(true);
    expect(lines[0].inputs.question).toContain("[redacted]");
  });

  it("refuses a bad filter with a 422 before streaming", async () => {
    const response = await GET(apiRequest("GET", undefined, "http://localhost/api/runs/export?minCost=lots"));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe("minCost");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "../db/run-repository";
import { createWorkflow } from "../db/workflow-repository";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { extraTemplates } from "../workflow/templates";
import { RunService } from "./run-service";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// Every gallery template runs end to end offline: the demo model and the local demo web APIs,
// with the start inputs' defaults, every node recorded, the run succeeded.

describe("gallery templates on the demo model", () => {
  let test: OwnerWorkspace;
  let stub: DemoApiStub;
  let workspaceId: string;
  let userId: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    ({ workspaceId, ownerId: userId } = test);
    stub = await startDemoApiStub({ port: 0 });
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    Object.assign(process.env, stub.environment, { TRELLIS_HTTP_ALLOWLIST: new URL(stub.origin).host });
  });
  afterAll(async () => {
    process.env = saved;
    await stub?.close();
    await test?.dispose();
  });

  it.each(extraTemplates.map((template) => [template.name, template] as const))(
    "%s runs to succeeded with its default inputs",
    async (_name, template) => {
      const { id } = await createWorkflow(workspaceId, { name: template.name, userId, draft: template.document });
      const { runId, done } = await new RunService().start({
        workspaceId,
        workflowId: id,
        document: template.document,
        inputs: {},
        trigger: "editor",
      });
      await done;
      const result = await getRunWithNodeRuns(runId);
      if (result?.run.status !== "succeeded") {
        throw new Error(
          `run ${result?.run.status}: ${result?.run.errorCode} ${result?.run.errorMessage}\n${JSON.stringify(result?.nodeRuns.map((row) => [row.nodeId, row.status, row.errorCode, row.errorMessage]))}`,
        );
      }
      const ran = new Set(result.nodeRuns.map((row) => row.nodeId));
      for (const node of template.document.nodes) expect(ran.has(node.id)).toBe(true);
      const outputs = result.run.outputs as Record<string, unknown>;
      for (const value of Object.values(outputs)) expect(value).not.toBe("");
    },
    30_000,
  );
});

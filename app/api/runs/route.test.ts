import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/db/run-repository";
import { listWorkflows } from "@/lib/db/workflow-repository";
import type { RunTrigger } from "@/lib/runs/run-status";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { GET as workflowRuns } from "../workflows/[id]/runs/route";
import { GET } from "./route";

type Page = {
  runs: { id: string; trigger: string; status: string; workflowName: string }[];
  nextCursor: string | null;
};

async function page(url: string): Promise<Page> {
  const response = await GET(apiRequest("GET", undefined, `http://localhost${url}`));
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

describe("run history API", () => {
  let test: OwnerWorkspace;
  let workflowIds: string[];
  const created: string[] = [];

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    const { workspaceId } = test;
    workflowIds = (await listWorkflows(workspaceId)).map((workflow) => workflow.id);
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    const triggers: RunTrigger[] = ["editor", "api", "api", "editor", "api"];
    for (const [index, trigger] of triggers.entries()) {
      created.push(
        await createRun({
          workspaceId,
          workflowId: workflowIds[index % 2],
          trigger,
          compiled: compiled.workflow,
          inputs: {},
          usesDemoModel: false,
        }),
      );
      // Distinct start times, so "newest first" and the cursor are well defined.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  afterAll(async () => test?.dispose());

  it("lists the workspace's runs newest first with their workflow, filtered by trigger", async () => {
    const all = await page("/api/runs");
    expect(all.runs.map((run) => run.id)).toEqual([...created].reverse());
    expect(all.runs[0].workflowName).toBeTruthy();
    expect(all.nextCursor).toBeNull();
    const api = await page("/api/runs?trigger=api");
    expect(api.runs.map((run) => run.trigger)).toEqual(["api", "api", "api"]);
    expect((await page("/api/runs?status=failed")).runs).toEqual([]);
  });

  it("pages with a cursor until the oldest run", async () => {
    const first = await page("/api/runs?limit=2");
    expect(first.runs.map((run) => run.id)).toEqual([created[4], created[3]]);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(`/api/runs?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.runs.map((run) => run.id)).toEqual([created[2], created[1]]);
    const third = await page(`/api/runs?limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
    expect(third.runs.map((run) => run.id)).toEqual([created[0]]);
    expect(third.nextCursor).toBeNull();
  });

  it("keeps a workflow's history to that workflow", async () => {
    const response = await workflowRuns(apiRequest("GET", undefined, "http://localhost/x?trigger=api"), {
      params: Promise.resolve({ id: workflowIds[0] }),
    });
    const body = (await response.json()) as Page;
    expect(body.runs.map((run) => run.id)).toEqual([created[4], created[2]]);
  });

  it("names a bad filter with a 422", async () => {
    for (const [query, field] of [
      ["status=sideways", "status"],
      ["status=failed,nope", "status"],
      ["trigger=cron", "trigger"],
      ["from=yesterday", "from"],
      ["from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "to"],
      ["minDurationMs=-1", "minDurationMs"],
      ["minCost=cheap", "minCost"],
      ["sort=name", "sort"],
      ["direction=up", "direction"],
      ["cursor=garbage", "cursor"],
      ["limit=0", "limit"],
      // A value that is not true/false is refused by the review filters too.
      ["reviewed=maybe", "reviewed"],
    ]) {
      const response = await GET(apiRequest("GET", undefined, `http://localhost/api/runs?${query}`));
      expect(response.status, query).toBe(422);
      expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field);
    }
  });
});

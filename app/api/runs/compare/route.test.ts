import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithPassword } from "@/lib/db/credentials";
import { toJson } from "@/lib/db/json";
import { hashPassword } from "@/lib/db/passwords";
import { publishWorkflow } from "@/lib/db/workflow-repository";
import type { RunDetail } from "@/lib/runs/node-run-view";
import type { RunCompareResult } from "@/lib/runs/run-compare";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { POST as startRun } from "../../workflows/[id]/runs/route";
import { GET as exportRun } from "../[runId]/export/route";
import { POST as rerun } from "../[runId]/rerun/route";
import { GET as getRun } from "../[runId]/route";
import { GET as compare } from "./route";

type ErrorBody = { error: { code: string; field?: string } };
const SECRET = "sk-export-test-secret-0123456789";

describe("compare, re-run and export over the API", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let ownerId: string;
  let workflowId: string;
  let draftRun: string;
  let latestRerun: string;
  let draftRerun: string;
  const previousKey = process.env.OPENAI_API_KEY;

  async function finished(runId: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const row = await test.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
      if (!["queued", "running"].includes(row.status)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} did not finish`);
  }
  const detail = async (runId: string) =>
    (await (await getRun(apiRequest(), pathParams({ runId }))).json()) as RunDetail;
  const rerunAs = (runId: string, target: string) => rerun(apiRequest("POST", { target }), pathParams({ runId }));
  const comparePair = (a: string, b: string) =>
    compare(apiRequest("GET", undefined, `http://localhost/api/runs/compare?a=${a}&b=${b}`));

  beforeAll(async () => {
    process.env.OPENAI_API_KEY = SECRET;
    test = await seedOwnerWorkspace("sqlite", { adminPassword: "owner-password" });
    ({ workspaceId, ownerId } = test);
    workflowId = (
      await test.db.workflow.create({
        data: { workspaceId, name: "Greeter", slug: "greeter", draft: toJson(minimalDocument()) },
      })
    ).id;
    await publishWorkflow(workflowId, { note: "v1", userId: ownerId });
    const started = await startRun(apiRequest("POST", { inputs: { query: "Ada" } }), pathParams({ id: workflowId }));
    expect(started.status).toBe(201);
    draftRun = ((await started.json()) as { runId: string }).runId;
    await finished(draftRun);
  });
  afterAll(async () => {
    process.env.OPENAI_API_KEY = previousKey;
    await test?.dispose();
  });

  it("re-runs on the latest version with the same inputs and links both ways; a draft run has no 'same' version", async () => {
    const same = await rerunAs(draftRun, "same");
    expect(same.status).toBe(409);
    expect(((await same.json()) as ErrorBody).error).toMatchObject({ code: "rerun_unavailable", field: "target" });

    const latest = await rerunAs(draftRun, "latest");
    expect(latest.status).toBe(202);
    latestRerun = ((await latest.json()) as { runId: string }).runId;
    await finished(latestRerun);
    const rerunDetail = await detail(latestRerun);
    expect(rerunDetail.run.inputs).toEqual({ query: "Ada" });
    expect(rerunDetail.run.status).toBe("succeeded");
    expect(rerunDetail.workflow?.version).toBe(1);
    expect(rerunDetail.lineage?.rerunOfId).toBe(draftRun);
    expect((await detail(draftRun)).lineage?.reruns.map((row) => row.id)).toEqual([latestRerun]);

    // A run of a version re-runs on that same version.
    const again = await rerunAs(latestRerun, "same");
    expect(again.status).toBe(202);
    const againId = ((await again.json()) as { runId: string }).runId;
    await finished(againId);
    expect((await detail(againId)).workflow?.version).toBe(1);
  });

  it("re-runs on the current draft, and the comparison shows the workflow change and the output diff", async () => {
    const changed = minimalDocument();
    const greet = changed.nodes.find((node) => node.id === "greet");
    if (!greet) throw new Error("fixture lacks greet");
    greet.data = { ...greet.data, template: "Hi {{start.query}}" };
    await test.db.workflow.update({ where: { id: workflowId }, data: { draft: toJson(changed) } });
    const response = await rerunAs(draftRun, "draft");
    expect(response.status).toBe(202);
    draftRerun = ((await response.json()) as { runId: string }).runId;
    await finished(draftRerun);

    const result = (await (await comparePair(draftRun, draftRerun)).json()) as RunCompareResult;
    expect(result.a.run.id).toBe(draftRun);
    expect(result.versionDiff.identical).toBe(false);
    expect(result.versionDiff.nodes.changed).toEqual([
      expect.objectContaining({
        id: "greet",
        fields: [{ path: "data.template", before: "Hello {{start.query}}", after: "Hi {{start.query}}" }],
      }),
    ]);
    expect(result.comparison.inputChanges).toEqual([]);
    expect(result.comparison.outputChanges).toEqual([{ path: "answer", before: "Hello Ada", after: "Hi Ada" }]);
    const greetRow = result.comparison.nodes.find((node) => node.nodeId === "greet");
    expect(greetRow?.a?.status).toBe("succeeded");
    expect(greetRow?.outputChanges.length).toBeGreaterThan(0);
    expect(result.comparison.nodes.map((node) => node.nodeId).sort()).toEqual(["end", "greet", "start"]);

    const same = (await (await comparePair(draftRun, latestRerun)).json()) as RunCompareResult;
    expect(same.versionDiff.identical).toBe(true);
    expect(same.comparison.outputChanges).toEqual([]);
  });

  it("exports a run as JSON and JSONL with stored secrets masked", async () => {
    const nodeRun = await test.db.nodeRun.findFirstOrThrow({ where: { runId: draftRun, nodeId: "greet" } });
    await test.db.nodeRun.update({ where: { id: nodeRun.id }, data: { outputs: toJson({ text: `key ${SECRET}` }) } });
    const asJson = await exportRun(
      apiRequest("GET", undefined, "http://localhost/x?format=json"),
      pathParams({ runId: draftRun }),
    );
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get("content-disposition")).toContain(`run-${draftRun}.json`);
    const text = await asJson.text();
    expect(text).not.toContain(SECRET);
    expect(text).toContain("[redacted]");
    const parsed = JSON.parse(text) as { format: string; nodeRuns: unknown[]; run: { id: string }; lineage: unknown };
    expect(parsed.format).toBe("trellis-run");
    expect(parsed.run.id).toBe(draftRun);
    expect(parsed).not.toHaveProperty("compiled");

    const asLines = await exportRun(
      apiRequest("GET", undefined, "http://localhost/x?format=jsonl"),
      pathParams({ runId: draftRun }),
    );
    const lines = (await asLines.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(asLines.headers.get("content-type")).toContain("application/x-ndjson");
    expect(lines[0].type).toBe("run");
    expect(lines.filter((line) => line.type === "node-run")).toHaveLength(parsed.nodeRuns.length);
    expect(JSON.stringify(lines)).not.toContain(SECRET);

    const bad = await exportRun(
      apiRequest("GET", undefined, "http://localhost/x?format=csv"),
      pathParams({ runId: draftRun }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.field).toBe("format");
  });

  it("a viewer may compare and export but not re-run; another workspace's run is not found", async () => {
    const viewer = await createUserWithPassword(
      { email: "vic@example.test", name: "Vic", passwordHash: await hashPassword("viewer-pass") },
      test.db,
    );
    await test.db.membership.create({ data: { workspaceId, userId: viewer.id, role: "viewer" } });
    await signInAs(viewer.id);
    expect((await comparePair(draftRun, draftRerun)).status).toBe(200);
    const refused = await rerunAs(draftRun, "draft");
    expect(refused.status).toBe(403);
    expect((await rerunAs(draftRun, "sideways")).status).toBe(400);

    const other = await test.db.workspace.create({ data: { name: "Elsewhere", slug: "elsewhere" } });
    const stranger = await createUserWithPassword(
      { email: "s@example.test", name: "S", passwordHash: await hashPassword("stranger-pass") },
      test.db,
    );
    await test.db.membership.create({ data: { workspaceId: other.id, userId: stranger.id, role: "owner" } });
    await signInAs(stranger.id);
    for (const response of [
      await comparePair(draftRun, draftRerun),
      await rerunAs(draftRun, "draft"),
      await exportRun(apiRequest(), pathParams({ runId: draftRun })),
    ]) {
      expect(response.status).toBe(404);
    }
    expect((await compare(apiRequest("GET", undefined, "http://localhost/api/runs/compare?a=x"))).status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/db/run-repository";
import { listWorkflows } from "@/lib/db/workflow-repository";
import { isLargeValueRef } from "@/lib/runs/large-values";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { GET as getRun } from "../route";
import { GET as getNodeRun } from "./[nodeRunId]/route";

// The run detail API pages large node-run payloads (issue 11): a run whose node produced 5 MB
// answers with a reference to that value instead of the value, and with pages of node runs;
// the whole node run is one request away, and nothing is lost.

const BIG = "x".repeat(5_000_000);

describe("run detail paging", () => {
  let test: OwnerWorkspace;
  let runId: string;

  async function detail(query = "") {
    const response = await getRun(apiRequest("GET", undefined, `http://localhost/api/runs/${runId}${query}`), {
      params: Promise.resolve({ runId }),
    });
    return { response, text: await response.text() };
  }

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    const { workspaceId } = test;
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    runId = await createRun({
      workspaceId,
      workflowId: (await listWorkflows(workspaceId))[0].id,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: {},
      usesDemoModel: false,
    });
    for (let index = 0; index < 5; index++) {
      await test.db.nodeRun.create({
        data: {
          id: `${runId}:n${index}::1`,
          runId,
          nodeId: `n${index}`,
          nodeType: "code",
          title: `Node ${index}`,
          status: "succeeded",
          inputs: {},
          outputs: index === 2 ? { result: BIG } : { result: `small ${index}` },
          startedAt: new Date(Date.now() + index),
          endedAt: new Date(Date.now() + index + 1),
        },
      });
    }
  });
  afterAll(async () => test?.dispose());

  it("sends a 5 MB value as a reference with its size and a preview, and the rest inline", async () => {
    const { response, text } = await detail();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThan(100_000);
    const body = JSON.parse(text) as { nodeRuns: { nodeId: string; outputs: unknown }[]; nodeRunsPage: unknown };
    expect(body.nodeRunsPage).toEqual({ total: 5, nextCursor: null });
    const big = body.nodeRuns.find((nodeRun) => nodeRun.nodeId === "n2")!;
    expect(isLargeValueRef(big.outputs)).toBe(true);
    expect(big.outputs).toMatchObject({ field: "outputs", bytes: JSON.stringify({ result: BIG }).length });
    expect(body.nodeRuns.find((nodeRun) => nodeRun.nodeId === "n1")?.outputs).toEqual({ result: "small 1" });
  });

  it("serves the whole node run behind the reference, value intact", async () => {
    const { text } = await detail();
    const ref = (JSON.parse(text) as { nodeRuns: { nodeId: string; outputs: { href: string } }[] }).nodeRuns.find(
      (nodeRun) => nodeRun.nodeId === "n2",
    )!.outputs;
    const nodeRunId = decodeURIComponent(ref.href.split("/").at(-1)!);
    const response = await getNodeRun(apiRequest("GET", undefined, `http://localhost${ref.href}`), {
      params: Promise.resolve({ runId, nodeRunId }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outputs: { result: string } }).outputs.result).toBe(BIG);
  });

  it("pages node runs with a cursor, and refuses a cursor that names no node run of the run", async () => {
    const first = JSON.parse((await detail("?nodeRunsLimit=2")).text) as {
      nodeRuns: { nodeId: string }[];
      nodeRunsPage: { nextCursor: string | null };
    };
    expect(first.nodeRuns.map((nodeRun) => nodeRun.nodeId)).toEqual(["n0", "n1"]);
    const seen = [...first.nodeRuns.map((nodeRun) => nodeRun.nodeId)];
    let cursor = first.nodeRunsPage.nextCursor;
    while (cursor) {
      const next = JSON.parse(
        (await detail(`?nodeRunsLimit=2&nodeRunsAfter=${encodeURIComponent(cursor)}`)).text,
      ) as typeof first;
      seen.push(...next.nodeRuns.map((nodeRun) => nodeRun.nodeId));
      cursor = next.nodeRunsPage.nextCursor;
    }
    expect(seen).toEqual(["n0", "n1", "n2", "n3", "n4"]);
    const bad = await detail("?nodeRunsAfter=nope");
    expect(bad.response.status).toBe(422);
    expect(JSON.parse(bad.text).error).toMatchObject({ code: "invalid_cursor", field: "nodeRunsAfter" });
    expect((await detail("?nodeRunsLimit=0")).response.status).toBe(400);
  });

  it("answers 404 for a node run that is not the run's", async () => {
    const response = await getNodeRun(apiRequest("GET", undefined, `http://localhost/api/runs/${runId}/node-runs/x`), {
      params: Promise.resolve({ runId, nodeRunId: "other:n0::1" }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("node_run_not_found");
  });
});

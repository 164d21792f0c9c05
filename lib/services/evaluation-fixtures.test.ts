import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProvider } from "../db/provider-repository";
import { createWorkflow, getWorkflowIdBySlug } from "../db/workflow-repository";
import type { DatasetCaseInput } from "../evaluation/model/dataset";
import { ticketBlockersDataset } from "../evaluation/model/example-datasets";
import { type FakeChatRequestBody, type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { ticketBlockersExample } from "../workflow/examples/ticket-blockers";
import type { Principal } from "./access/principal";
import { getEvaluation } from "./evaluation-queries";
import { startEvaluation } from "./evaluation-runner";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// The shipped "transient tool error" and "paged results" cases really meet their fault: the
// fixture fails the ticket search once / makes the stub answer one ticket per page. The agent's
// retry and its paging are what pass them; without those, the same cases fail.

const shippedCase = (id: string) => ticketBlockersDataset.cases.find((entry) => entry.id === id)!;
const transient = shippedCase("transient-tool-error");
const paged = shippedCase("paged-results");

/** The same case with other faults on the ticket search. */
function withFaults(faults: { attempt: number; error: string; retryable?: boolean }[], id: string): DatasetCaseInput {
  return { ...transient, id, fixture: { tools: [{ tool: "search_tickets", faults }] } };
}

/** A fake function-calling agent: tickets, then notes, then an answer; `followCursor` reads every page. */
function fakeAgent(followCursor: () => boolean) {
  return (request: FakeChatRequestBody) => {
    const results = request.messages
      .filter((message) => message.role === "tool")
      .map((message) => String(message.content));
    const ticketPages = results.filter((text) => text.includes('"tickets"'));
    const ids = [...new Set(ticketPages.join("\n").match(/\bPX-\d+\b/g) ?? [])];
    const cursor = /"next_cursor":"([^"]+)"/.exec(ticketPages.at(-1) ?? "")?.[1];
    const call = (name: string, args: unknown) => ({
      toolCalls: [{ id: `call_${results.length}`, name, arguments: JSON.stringify(args) }],
    });
    if (ticketPages.length === 0) return call("search_tickets", { project_id: "PX", status: "blocked" });
    if (cursor && followCursor()) return call("search_tickets", { project_id: "PX", status: "blocked", cursor });
    if (results.length === ticketPages.length) return call("search_meeting_notes", { ticket_ids: ids });
    return {
      text: `Blocked tickets: ${ids.join(", ")}.\n${ids.map((id) => `${id}: no explanation found`).join("\n")}`,
    };
  };
}

describe("case fixtures: faults and pages through the tool layer", () => {
  let test: OwnerWorkspace;
  let stub: DemoApiStub;
  let server: FakeOpenAIServer;
  let principal: Principal;
  let demoWorkflowId: string;
  let fakeWorkflowId: string;
  let pages = true;
  const saved = { ...process.env };

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "f@x.test", adminPassword: "pw", workspaceName: "F" });
    principal = test.owner;
    stub = await startDemoApiStub({ port: 0 });
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    Object.assign(process.env, stub.environment);
    demoWorkflowId = (await getWorkflowIdBySlug(test.workspaceId, "ticket-blockers"))!;
    server = await startFakeOpenAIServer();
    await saveProvider(test.workspaceId, "fake", { baseURL: server.url, apiKey: "sk-fake" });
    server.setResponder(fakeAgent(() => pages));
    const document = structuredClone(ticketBlockersExample.document);
    const agent = document.nodes.find((node) => node.id === "agent")!;
    (agent.data as unknown as { model: unknown }).model = { provider: "fake", model: "gpt-4o-mini" };
    fakeWorkflowId = (
      await createWorkflow(test.workspaceId, {
        name: "Blockers (fake agent)",
        userId: test.ownerId,
        draft: document,
      })
    ).id;
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await stub?.close();
    await test?.dispose();
  });

  async function evaluate(workflowId: string, cases: DatasetCaseInput[], datasetName: string) {
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId,
      cases,
      datasetName,
      trials: 1,
      concurrency: 2,
    });
    const report = await done;
    const { trials } = await getEvaluation(principal, evaluationId);
    const failedChecks = (caseId: string) =>
      trials
        .filter((trial) => trial.caseId === caseId)
        .flatMap((trial) => (trial.checks as { name: string; passed: boolean }[]).filter((check) => !check.passed))
        .map((check) => check.name);
    const passed = (caseId: string) => report.cases.find((entry) => entry.caseId === caseId)?.passHatK === 1;
    return { passed, failedChecks, report };
  }

  it("the transient case fails its first ticket search; the guard's retry passes it, and nothing else does", async () => {
    const result = await evaluate(
      demoWorkflowId,
      [
        transient,
        // The same single failure, not retryable: the guard does not retry and the case fails.
        withFaults([{ attempt: 1, error: "Service unavailable (503)", retryable: false }], "not-retried"),
        // The retry fails too: one retry is all the guard gives, and the case fails.
        withFaults(
          [
            { attempt: 1, error: "Service unavailable (503)" },
            { attempt: 2, error: "Service unavailable (503)" },
          ],
          "retry-fails-too",
        ),
      ],
      "Transient",
    );
    expect(result.failedChecks("transient-tool-error")).toEqual([]);
    expect(result.passed("transient-tool-error")).toBe(true);
    expect(result.failedChecks("not-retried")).toContain("found-the-blockers");
    expect(result.failedChecks("retry-fails-too")).toContain("found-the-blockers");
  });

  it("the paged case gets one ticket per page: an agent that follows next_cursor passes, one that does not fails", async () => {
    const onDemo = await evaluate(demoWorkflowId, [paged], "Paged (demo model)");
    expect(onDemo.failedChecks("paged-results")).toEqual([]);

    pages = false;
    const noPaging = await evaluate(
      fakeWorkflowId,
      [paged, { ...paged, id: "paged-without-fixture", fixture: undefined }],
      "Paged (no paging)",
    );
    // Without the fixture the stub's default page holds both blockers, so a non-paging agent passes
    // the blockers check: the fixture is what makes the case need paging.
    expect(noPaging.failedChecks("paged-without-fixture")).toEqual(["read-page-2"]);
    expect(noPaging.failedChecks("paged-results")).toEqual(["read-page-2", "all-blockers"]);

    pages = true;
    const paging = await evaluate(fakeWorkflowId, [paged], "Paged (paging)");
    expect(paging.failedChecks("paged-results")).toEqual([]);
    // The agent is a function-calling one: all of the trial's tokens are that mode's.
    const { tokensByMode, totalTokens } = paging.report.totals;
    expect(Object.keys(tokensByMode)).toEqual(["function_call"]);
    expect(tokensByMode.function_call).toMatchObject({ trials: 1, totalTokens });
    expect(totalTokens).toBeGreaterThan(0);
  });

  it("a fixture naming a tool the workflow does not use is refused, naming the field", async () => {
    await expect(
      startEvaluation(principal, {
        workflowId: demoWorkflowId,
        datasetName: "Unused tool",
        cases: [
          { ...transient, fixture: { tools: [{ tool: "get_current_weather", faults: [{ attempt: 1, error: "x" }] }] } },
        ],
      }),
    ).rejects.toMatchObject({
      code: "invalid_dataset",
      details: { field: "cases.0.fixture.tools.0.tool" },
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRun } from "@/lib/db/run-repository";
import { listWorkflows } from "@/lib/db/workflow-repository";
import type { RunReviewView } from "@/lib/runs/run-review-view";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { GET as needsReview } from "../../needs-review/route";
import { POST as comment, GET as listComments } from "../comments/route";
import { GET, PATCH } from "./route";

type ErrorBody = { error: { code: string; field?: string; mentions?: string[] } };
type Queue = { runs: { id: string }[]; total: number };

describe("run review API", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let workflowId: string;
  let ownerId: string;
  let viewerId: string;
  const runs: Record<"failed" | "partial" | "succeeded" | "other", string> = {
    failed: "",
    partial: "",
    succeeded: "",
    other: "",
  };
  let nodeRunId: string;

  const queue = async () => (await (await needsReview(apiRequest())).json()) as Queue;
  const review = (runId: string, body: unknown) => PATCH(apiRequest("PATCH", body), pathParams({ runId }));

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "olga@example.test", adminPassword: "owner-password" });
    ({ workspaceId, ownerId } = test);
    await test.db.user.update({ where: { id: ownerId }, data: { name: "Olga Owner" } });
    workflowId = (await listWorkflows(workspaceId))[0].id;
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("fixture does not compile");
    for (const status of ["failed", "partial", "succeeded"] as const) {
      runs[status] = await createRun({
        workspaceId,
        workflowId,
        trigger: "editor",
        compiled: compiled.workflow,
        inputs: { question: status },
        usesDemoModel: false,
      });
      await test.db.run.update({ where: { id: runs[status] }, data: { status, endedAt: new Date() } });
    }
    nodeRunId = `${runs.failed}:answer:[]:1`;
    await test.db.nodeRun.create({
      data: {
        id: nodeRunId,
        runId: runs.failed,
        nodeId: "answer",
        nodeType: "llm",
        title: "Answer",
        status: "failed",
        startedAt: new Date(),
      },
    });
    // A run in another workspace, reachable by id only.
    const other = await test.db.workspace.create({ data: { name: "Elsewhere", slug: "elsewhere" } });
    const otherWorkflow = await test.db.workflow.create({
      data: { workspaceId: other.id, name: "Theirs", slug: "theirs", draft: {} },
    });
    runs.other = await createRun({
      workspaceId: other.id,
      workflowId: otherWorkflow.id,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: {},
      usesDemoModel: false,
    });
    await test.db.run.update({ where: { id: runs.other }, data: { status: "failed" } });
    viewerId = (await addTestMember(workspaceId, { email: "vera@example.test", name: "Vera Viewer", role: "viewer" }))
      .userId;
  });
  beforeEach(() => signInAs(viewerId));
  afterAll(async () => test?.dispose());

  it("queues failed and partial runs of the workspace only, not succeeded ones", async () => {
    const before = await queue();
    expect(new Set(before.runs.map((run) => run.id))).toEqual(new Set([runs.failed, runs.partial]));
    expect(before.total).toBe(2);
  });

  it("a viewer rates, labels and comments; a bad rating queues a succeeded run", async () => {
    const rated = await review(runs.succeeded, {
      rating: "bad",
      labels: ["hallucination", " regression ", "regression"],
    });
    expect(rated.status).toBe(200);
    const body = (await rated.json()) as RunReviewView;
    expect(body.rating).toBe("bad");
    expect(body.ratedBy).toEqual({ userId: viewerId, name: "Vera Viewer" });
    expect(body.labels).toEqual(["hallucination", "regression"]);
    expect(body.reviewed).toBe(false);
    expect((await queue()).runs.map((run) => run.id)).toContain(runs.succeeded);

    const commented = await comment(
      apiRequest("POST", { body: "@olga see the answer node, and @OlgaOwner too", nodeRunId }),
      pathParams({ runId: runs.failed }),
    );
    expect(commented.status).toBe(201);
    const [note] = ((await commented.json()) as RunReviewView).comments;
    expect(note.author).toEqual({ userId: viewerId, name: "Vera Viewer" });
    expect(note.nodeId).toBe("answer");
    expect(note.nodeRunId).toBe(nodeRunId);
    expect(note.mentions).toEqual([{ userId: ownerId, name: "Olga Owner" }]);
    expect(Date.parse(note.createdAt)).not.toBeNaN();
    const listed = (await (await listComments(apiRequest(), pathParams({ runId: runs.failed }))).json()) as {
      comments: unknown[];
    };
    expect(listed.comments).toHaveLength(1);
  });

  it("marking reviewed takes a run out of the queue; unmarking puts it back", async () => {
    const marked = await review(runs.failed, { reviewed: true });
    expect(marked.status).toBe(200);
    const body = (await marked.json()) as RunReviewView;
    expect(body.reviewed).toBe(true);
    expect(body.reviewedBy?.userId).toBe(viewerId);
    expect((await queue()).runs.map((run) => run.id)).not.toContain(runs.failed);
    await review(runs.failed, { reviewed: false });
    expect((await queue()).runs.map((run) => run.id)).toContain(runs.failed);
    // Rating good does not mark reviewed by itself.
    await review(runs.succeeded, { rating: "good" });
    expect((await queue()).runs.map((run) => run.id)).not.toContain(runs.succeeded);
  });

  it("an unknown mention is a 422 naming the field and the name", async () => {
    const response = await comment(
      apiRequest("POST", { body: "ping @nobody and @olga" }),
      pathParams({ runId: runs.failed }),
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: "unknown_mention", field: "body", mentions: ["nobody"] });
    // An e-mail address is not a mention.
    const mail = await comment(
      apiRequest("POST", { body: "write to vera@example.test" }),
      pathParams({ runId: runs.failed }),
    );
    expect(mail.status).toBe(201);
  });

  it("bad input is a 4xx naming the field", async () => {
    const cases: [Response, number, string][] = [
      [await review(runs.failed, { rating: "meh" }), 400, "rating"],
      [await review(runs.failed, { labels: [""] }), 400, "labels.0"],
      [await review(runs.failed, { colour: "red" }), 400, ""],
      [await comment(apiRequest("POST", { body: "  " }), pathParams({ runId: runs.failed })), 400, "body"],
      [
        await comment(apiRequest("POST", { body: "x", nodeId: "ghost" }), pathParams({ runId: runs.failed })),
        422,
        "nodeId",
      ],
      [
        await comment(apiRequest("POST", { body: "x", nodeRunId }), pathParams({ runId: runs.partial })),
        422,
        "nodeRunId",
      ],
    ];
    for (const [response, status, field] of cases) {
      expect(response.status).toBe(status);
      const body = (await response.json()) as ErrorBody;
      if (field) expect(body.error.field).toBe(field);
    }
  });

  it("another workspace's run is not found, for reading and reviewing alike", async () => {
    for (const response of [
      await GET(apiRequest(), pathParams({ runId: runs.other })),
      await review(runs.other, { rating: "good" }),
      await comment(apiRequest("POST", { body: "hi" }), pathParams({ runId: runs.other })),
      await GET(apiRequest(), pathParams({ runId: "no-such-run" })),
    ]) {
      expect(response.status).toBe(404);
      expect(((await response.json()) as ErrorBody).error.code).toBe("run_not_found");
    }
    expect((await queue()).runs.map((run) => run.id)).not.toContain(runs.other);
  });

  it("without a session nothing is readable", async () => {
    await signInAs(undefined);
    expect((await GET(apiRequest(), pathParams({ runId: runs.failed }))).status).toBe(401);
    expect((await needsReview(apiRequest())).status).toBe(401);
  });
});

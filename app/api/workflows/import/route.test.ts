import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpCredential } from "@/lib/db/http-credential-repository";
import { getWorkflow, listWorkflows } from "@/lib/db/workflow-repository";
import { buildWorkflowFile } from "@/lib/interop/trellis/workflow-file";
import { apiRequest, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { compileWorkflow } from "@/lib/workflow/compile";
import { POST } from "./route";

const fixture = (name: string) =>
  readFileSync(path.resolve(__dirname, "../../../../lib/interop/dify/fixtures", name), "utf8");

function post(body: unknown): Request {
  const request = apiRequest(
    "POST",
    typeof body === "string" ? undefined : body,
    "http://localhost/api/workflows/import",
  );
  if (typeof body !== "string") return request;
  // Sent as JSON, so the wrapper reaches the JSON parser (without it the answer is 415).
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers, body });
}

const signedInAs = signInAs;
let ownerId: string;

describe("POST /api/workflows/import", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite");
    ({ workspaceId, ownerId } = test);
  });
  beforeEach(() => signedInAs(ownerId));
  afterAll(async () => test?.dispose());

  it("answers the report without saving on a dry run", async () => {
    const before = (await listWorkflows(workspaceId)).length;
    const response = await POST(post({ format: "dify", content: fixture("app-translation-chain.yml"), dryRun: true }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.name).toBe("Translation chain");
    expect(body.report.summary).toEqual({ mapped: 2, changed: 3, unsupported: 0 });
    expect(body.report.compile.ok).toBe(true);
    expect((await listWorkflows(workspaceId)).length).toBe(before);
  });

  it("says when this server cannot run the file's Python code nodes, and stops saying it once a sandbox is set", async () => {
    const notes = async () => {
      const response = await POST(post({ format: "dify", content: fixture("code-python.yml"), dryRun: true }));
      expect(response.status).toBe(200);
      return ((await response.json()).report.notes as string[]).filter((note) => note.includes("code sandbox"));
    };
    const before = process.env.TRELLIS_CODE_SANDBOX_URL;
    try {
      delete process.env.TRELLIS_CODE_SANDBOX_URL;
      expect(await notes()).toEqual([
        "This server has no code sandbox service for Python (TRELLIS_CODE_SANDBOX_URL): the Python code node fails with sandbox_not_configured until one is set, or until it is rewritten in JavaScript",
      ]);
      process.env.TRELLIS_CODE_SANDBOX_URL = "http://127.0.0.1:8194";
      expect(await notes()).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TRELLIS_CODE_SANDBOX_URL;
      else process.env.TRELLIS_CODE_SANDBOX_URL = before;
    }
  });

  it("creates the workflow with the mapped document, never the file's secrets", async () => {
    const response = await POST(post({ format: "dify", content: fixture("http-request.yml") }));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.report.secrets.map((slot: { name: string }) => slot.name)).toEqual([
      "SERVICE_TOKEN",
      "dify_weather_api",
    ]);
    expect(body.report.references).toEqual([
      expect.objectContaining({ kind: "credential", name: "dify_weather_api", available: false }),
    ]);
    const saved = await getWorkflow(body.id);
    expect(saved?.name).toBe("HTTP request");
    const stored = JSON.stringify(saved);
    expect(stored).not.toContain("sk-http-should-never-be-stored");
    expect(stored).not.toContain("tok-env-secret-value");
    expect(compileWorkflow(saved!.draft).ok).toBe(true);
  });

  it("maps an unresolved Dify tool onto a workspace tool, which then compiles", async () => {
    const unmapped = await (await POST(post({ format: "dify", content: fixture("tool.yml"), dryRun: true }))).json();
    const search = unmapped.report.references.find(
      (reference: { name: string }) => reference.name === "google/google_search",
    );
    expect(search).toMatchObject({ available: false, nodeIds: ["search1"] });
    expect(search.candidates).toContain("calculator");
    expect(unmapped.report.compile.ok).toBe(false);
    const mapped = await (
      await POST(
        post({
          format: "dify",
          content: fixture("tool.yml"),
          dryRun: true,
          mapping: { tools: { "google/google_search": "http_request" } },
        }),
      )
    ).json();
    expect(
      mapped.report.references.map((reference: { name: string; available: boolean }) => [
        reference.name,
        reference.available,
      ]),
    ).toEqual([
      ["current_time", true],
      ["http_request", true],
    ]);
    expect(mapped.report.compile.ok).toBe(true);
    expect(mapped.document.nodes.find((node: { id: string }) => node.id === "search1").data.tool).toBe("http_request");
  });

  it("Trellis export → import: reports what the target lacks and maps it", async () => {
    await createHttpCredential(workspaceId, {
      name: "billing-v2",
      type: "bearer",
      secret: "tok-real",
      allowedHosts: ["billing.example.com"],
    });
    const document = {
      schemaVersion: 2,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
        {
          id: "call",
          type: "http",
          position: { x: 200, y: 0 },
          data: { title: "Call", method: "GET", url: "https://example.test", credential: "billing" },
        },
        {
          id: "helper",
          type: "agent",
          position: { x: 400, y: 0 },
          data: { title: "Helper", query: "hi", tools: ["lookup_invoice"], model: { provider: "acme", model: "m1" } },
        },
        {
          id: "end",
          type: "end",
          position: { x: 600, y: 0 },
          data: { title: "End", outputs: [{ name: "a", value: ["helper", "answer"] }] },
        },
      ],
      edges: [
        { id: "e1", source: "start", target: "call" },
        { id: "e2", source: "call", target: "helper" },
        { id: "e3", source: "helper", target: "end" },
      ],
    };
    const file = buildWorkflowFile("Billing bot", "", document, { lookup_invoice: "Billing API" });
    expect(file.references).toEqual({
      tools: [{ name: "lookup_invoice", source: "Billing API" }],
      credentials: [{ name: "billing" }],
      providers: [{ name: "acme" }],
    });
    const content = JSON.stringify(file);
    const report = (await (await POST(post({ format: "trellis", content, dryRun: true }))).json()).report;
    expect(
      report.references.map((reference: { kind: string; name: string; available: boolean }) => [
        reference.kind,
        reference.name,
        reference.available,
      ]),
    ).toEqual([
      ["credential", "billing", false],
      ["tool", "lookup_invoice", false],
      ["provider", "acme", false],
    ]);
    expect(report.references[0].candidates).toEqual(["billing-v2"]);
    expect(report.notes).toContain(
      'Tool "lookup_invoice" came from the tool source "Billing API" in the exporting workspace',
    );
    const created = await POST(
      post({
        format: "trellis",
        content,
        mapping: {
          credentials: { billing: "billing-v2" },
          tools: { lookup_invoice: "calculator" },
          providers: { acme: "default" },
        },
      }),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.report.references.every((reference: { available: boolean }) => reference.available)).toBe(true);
    const saved = await getWorkflow(body.id);
    const nodes = Object.fromEntries(saved!.draft.nodes.map((node) => [node.id, node.data]));
    expect(nodes.call!.credential).toBe("billing-v2");
    expect(nodes.helper).toMatchObject({ tools: ["calculator"], model: { provider: "default", model: "m1" } });
  });

  it("answers 422 naming the path for a file that is not a workflow export", async () => {
    const response = await POST(
      post({ format: "dify", content: "kind: app\napp: {mode: chat}\nworkflow: {graph: {nodes: []}}" }),
    );
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ code: "invalid_import", field: "content", path: "app.mode" });
    const broken = await POST(post({ format: "dify", content: "app: [unclosed" }));
    expect(broken.status).toBe(422);
    const trellis = await POST(post({ format: "trellis", content: '{"name": "x", "document": {"nodes": 1}}' }));
    expect(trellis.status).toBe(422);
    expect((await trellis.json()).error.path).toBe("document.schemaVersion");
  });

  it("answers 400 for a bad body and 413 for a file over 10 MB, never 500", async () => {
    const format = await POST(post({ format: "zip", content: "x" }));
    expect(format.status).toBe(400);
    expect((await format.json()).error.field).toBe("format");
    expect((await POST(post("not json"))).status).toBe(400);
    const big = await POST(post({ format: "dify", content: "x".repeat(10 * 1024 * 1024 + 1) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("import_too_large");
    for (const content of [
      "{}",
      "[]",
      "null",
      "app: 1",
      "{{{",
      "\u0000",
      "workflow:\n  graph:\n    nodes: [{id: 1, data: {type: llm}}]\napp: {mode: workflow}",
    ]) {
      const response = await POST(post({ format: "dify", content, dryRun: true }));
      expect(response.status, content).toBeLessThan(500);
    }
  });

  it("refuses viewers with 403", async () => {
    const { userId: viewerId } = await addTestMember(workspaceId, { email: "vera@example.test", role: "viewer" });
    await signedInAs(viewerId);
    const response = await POST(post({ format: "dify", content: fixture("llm.yml"), dryRun: true }));
    expect(response.status).toBe(403);
  });
});

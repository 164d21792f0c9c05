import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PublishedApiWorkspace, seedPublishedApi } from "@/lib/services/testing/published-api";
import { runEvalCli } from "@/scripts/eval";
import { GET } from "./[id]/route";
import { POST } from "./route";

const JSONL = [
  JSON.stringify({
    id: "ada",
    inputs: { name: "Ada" },
    checks: [{ kind: "exact", name: "greets", expected: "Hello, Ada!" }],
  }),
  JSON.stringify({
    id: "bob",
    inputs: { name: "Bob" },
    checks: [{ kind: "contains", name: "greets", values: ["Hello, Robert"] }],
  }),
].join("\n");

/** Routes the CLI's requests to the route handlers, as a server would. */
async function fetchRoutes(input: string, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(input);
  if (url.pathname === "/api/v1/evaluations") return POST(request, { params: Promise.resolve({}) });
  const id = url.pathname.split("/").at(-1)!;
  return GET(request, { params: Promise.resolve({ id }) });
}

describe("/api/v1/evaluations and npm run eval", () => {
  let test: PublishedApiWorkspace;
  let evaluateKey: string;
  let runKey: string;

  beforeAll(async () => {
    test = await seedPublishedApi();
    await test.publish("Greeter");
    evaluateKey = await test.apiKey(["evaluate"]);
    runKey = await test.apiKey(["run"]);
  });
  afterAll(async () => test?.dispose());

  const base = ["--workflow", "greeter", "--dataset", "cases.jsonl", "-k", "3", "--base-url", "http://trellis.test"];

  it("prints the JSON summary and exits non-zero under the threshold", async () => {
    const result = await runEvalCli([...base, "--key", evaluateKey, "--threshold", "0.9"], {
      fetch: fetchRoutes,
      readFile: () => JSONL,
    });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatchObject({
      status: "succeeded",
      workflow: "greeter",
      version: 1,
      k: 3,
      threshold: 0.9,
      passed: false,
      totals: { passHatKRate: 0.5, finishedTrials: 6 },
      cases: [
        { id: "ada", passes: 3, passHatK: 1, failures: [] },
        {
          id: "bob",
          passes: 0,
          passHatK: 0,
          failures: expect.arrayContaining([
            expect.objectContaining({
              checks: [{ name: "greets", reason: expect.stringContaining('lacks "Hello, Robert"') }],
            }),
          ]),
        },
      ],
    });
    const lenient = await runEvalCli([...base, "--key", evaluateKey, "--threshold", "0.5"], {
      fetch: fetchRoutes,
      readFile: () => JSONL,
    });
    expect(lenient.exitCode).toBe(0);
  });

  it("polls after a 202", async () => {
    const slow = await runEvalCli([...base, "--key", evaluateKey, "--timeout", "1"], {
      fetch: async (input, init) => {
        if (init?.method === "POST") {
          const body = JSON.parse(String(init.body));
          return fetchRoutes(input, { ...init, body: JSON.stringify({ ...body, wait: false }) });
        }
        return fetchRoutes(input, init);
      },
      readFile: () => JSONL,
      pollMs: 50,
    });
    expect(slow.exitCode).toBe(0);
    expect(slow.output).toMatchObject({ status: "succeeded", totals: { finishedTrials: 6 } });
  });

  it("a key without the evaluate scope is refused; a bad file names line and field", async () => {
    const refused = await runEvalCli([...base, "--key", runKey], { fetch: fetchRoutes, readFile: () => JSONL });
    expect(refused).toMatchObject({
      exitCode: 2,
      output: { error: { code: "api_key_scope_missing", message: 'The API key lacks the "evaluate" scope.' } },
    });
    const bad = await runEvalCli([...base, "--key", evaluateKey], {
      fetch: fetchRoutes,
      readFile: () => '{"id":"x","checks":[{"kind":"regex","name":"r"}]}',
    });
    expect(bad).toMatchObject({
      exitCode: 2,
      output: { error: { code: "invalid_dataset", issues: [{ line: 1, field: "checks.0.pattern" }] } },
    });
    expect(await runEvalCli(["--workflow", "greeter"], { environment: {} })).toMatchObject({
      exitCode: 2,
      output: { error: { code: "usage" } },
    });
  });
});

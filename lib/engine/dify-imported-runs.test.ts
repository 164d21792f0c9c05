import { describe, expect, it } from "vitest";
import { importDifyWorkflow } from "../interop/dify/map-workflow";
import { readFixture } from "../interop/dify/testing/fixtures";
import { createDemoModel } from "../llm/demo";
import { createCodeTool } from "../tools/built-ins/code";
import { createPythonTool } from "../tools/built-ins/python";
import { createToolRegistry } from "../tools/registry";
import { pythonSandboxFromEnvironment } from "../tools/sandbox/python-sandbox";
import { useDifySandboxStub } from "../tools/sandbox/testing/use-dify-sandbox-stub";
import { compileWorkflow } from "../workflow/compile";
import { MemoryRunRecorder } from "./memory-recorder";
import { runWorkflow } from "./run-workflow";
import { createTestServices } from "./testing";
import { startFakeProvider } from "./testing/fake-provider";

describe("an imported Dify app runs on the real engine", () => {
  it("LLM → code → iteration (LLM body) → end succeeds on the demo model", async () => {
    const imported = importDifyWorkflow(readFixture("app-llm-iteration.yml"));
    const compiled = compileWorkflow(imported.document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const asked: string[] = [];
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      compiled.workflow,
      {},
      {
        runId: "run-dify-import",
        recorder,
        services: createTestServices({
          tools: createToolRegistry([createCodeTool()]),
          models: {
            resolve: async (reference) => {
              asked.push(`${reference.provider}/${reference.model}`);
              return createDemoModel(reference.model);
            },
          },
        }),
      },
    );
    if (result.status !== "succeeded") {
      throw new Error(
        `${result.status}: ${JSON.stringify(recorder.nodeRuns().map((row) => [row.nodeId, row.status, row.errorCode, row.errorMessage]))}`,
      );
    }
    const sections = result.outputs.sections as unknown[];
    expect(Array.isArray(sections)).toBe(true);
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) expect(typeof section).toBe("string");
    expect(asked.every((name) => name === "default/gpt-4o-mini")).toBe(true);
    // The default start input was applied, and every body item ran its own LLM call.
    const expandRuns = recorder.nodeRuns().filter((row) => row.nodeId === "expand" && row.status === "succeeded");
    expect(expandRuns.length).toBe(sections.length);
    expect(JSON.stringify(recorder.nodeRuns().find((row) => row.nodeId === "outline")?.inputs)).toContain("tide pools");
  });

  // `variable-assigner` is the aggregator's type in files from Dify before 0.6 (Dify still runs it
  // as one: NodeType.LEGACY_VARIABLE_AGGREGATOR); conversation-variable writes are `assigner`.
  it.each([
    ["variable-aggregator.yml", "yes", "It is yes"],
    ["variable-aggregator.yml", "no", "It is no"],
    ["variable-assigner-legacy.yml", "yes", "It is yes"],
    ["variable-assigner-legacy.yml", "no", "It is no"],
  ])(
    "if-else → branches → variable aggregator (as code) returns the branch that ran (%s, flag %s)",
    async (fixture, flag, expected) => {
      const imported = importDifyWorkflow(readFixture(fixture));
      expect(imported.report.nodes.find((entry) => entry.sourceId === "agg1")).toMatchObject({ status: "changed" });
      const compiled = compileWorkflow(imported.document);
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
      const result = await runWorkflow(
        compiled.workflow,
        { flag },
        {
          runId: `run-dify-aggregator-${fixture}-${flag}`,
          recorder: new MemoryRunRecorder(),
          services: createTestServices({ tools: createToolRegistry([createCodeTool()]) }),
        },
      );
      expect(result.status).toBe("succeeded");
      expect(result.outputs).toEqual({ text: expected });
    },
  );

  it("Dify JavaScript runs unchanged in the sandbox; `result` and the other outputs are read from its return value", async () => {
    const compiled = compileWorkflow(importDifyWorkflow(readFixture("code.yml")).document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const result = await runWorkflow(
      compiled.workflow,
      { a: 2, b: 3 },
      {
        runId: "run-dify-code",
        recorder: new MemoryRunRecorder(),
        services: createTestServices({ tools: createToolRegistry([createCodeTool()]) }),
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ sum: 5, doubled: 10 });
  });
});

describe("shapes of newer Dify files run on the engine", () => {
  const run = async (fixture: string, inputs: Record<string, unknown>) => {
    const compiled = compileWorkflow(importDifyWorkflow(readFixture(fixture)).document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    return runWorkflow(compiled.workflow, inputs, {
      runId: `run-${fixture}`,
      recorder: new MemoryRunRecorder(),
      services: createTestServices({ tools: createToolRegistry([createCodeTool()]) }),
    });
  };

  it("a code output named error reaches the end node", async () => {
    expect((await run("code-error-output.yml", { query: "" })).outputs).toEqual({
      command: "help",
      problem: "empty_input",
    });
    expect((await run("code-error-output.yml", { query: "plan the trip" })).outputs).toEqual({
      command: "plan",
      problem: "",
    });
  });

  it("an answer inside an iteration runs per item and the iteration's output is the answer", async () => {
    const result = await run("answer-in-iteration.yml", { words: "tide, pool" });
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ answer: ["0: tide", "1: pool"] });
  });

  it("list operators filter (with a reference in the value), order, limit and extract as Dify does", async () => {
    const result = await run("list-operator.yml", { needle: "tide" });
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({
      kept: ["tide pool", "tide line"],
      first: "tide pool",
      last: "tide line",
      // Dify extracts before it orders: the third item left by the filter (5, 4, 2, 3) is 2.
      third: 2,
      picked: [2],
    });
  });

  it("a list operator's serial past the end fails the node, never an empty success", async () => {
    const imported = importDifyWorkflow(readFixture("list-operator.yml").replace('serial: "3"', 'serial: "9"'));
    const compiled = compileWorkflow(imported.document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      compiled.workflow,
      { needle: "tide" },
      {
        runId: "run-list-serial",
        recorder,
        services: createTestServices({ tools: createToolRegistry([createCodeTool()]) }),
      },
    );
    expect(result.status).toBe("failed");
    expect(recorder.nodeRuns().find((row) => row.nodeId === "nums1")?.errorMessage).toContain(
      "Serial 9 is past the end of the list (4 items)",
    );
  });

  it("a webhook trigger's fields are the run's inputs", async () => {
    const result = await run("trigger-webhook.yml", { order_id: "A-7", amount: 12.5 });
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ summary: "Order A-7: 12.5" });
  });
});

describe("a Dify Python code node on the code sandbox service", () => {
  const sandbox = useDifySandboxStub();

  const runPythonFixture = async (service: ReturnType<typeof pythonSandboxFromEnvironment>) => {
    const compiled = compileWorkflow(importDifyWorkflow(readFixture("code-python.yml")).document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      compiled.workflow,
      { text: "the tide comes in twice a day" },
      {
        runId: `run-dify-python-${service ? "sandbox" : "none"}`,
        recorder,
        services: createTestServices({ tools: createToolRegistry([createPythonTool({ sandbox: service })]) }),
      },
    );
    return { result, py: recorder.nodeRuns().find((row) => row.nodeId === "py1") };
  };

  it.skipIf(!sandbox.python)("runs unchanged and its `result` reaches the end node", async () => {
    const { result, py } = await runPythonFixture(
      pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: sandbox.stub.url }),
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ words: 7 });
    expect(py?.processData).toMatchObject({ language: "python3" });
    expect(sandbox.stub.requests.at(-1)?.body).toMatchObject({ language: "python3", enable_network: false });
  });

  it("without a sandbox the run fails at that node with sandbox_not_configured, never succeeds", async () => {
    const { result, py } = await runPythonFixture(null);
    expect(result.status).toBe("failed");
    expect(py).toMatchObject({ status: "failed", errorCode: "sandbox_not_configured" });
    expect(py?.errorMessage).toContain("TRELLIS_CODE_SANDBOX_URL");
  });
});

describe("a Dify template with Jinja2 blocks on the code sandbox service", () => {
  const sandbox = useDifySandboxStub(["jinja2"]);

  it.skipIf(!sandbox.python)(
    "renders the {% for %} block with jinja2, as Dify does, and its output reaches the end",
    async () => {
      const compiled = compileWorkflow(importDifyWorkflow(readFixture("template-transform.yml")).document);
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
      const result = await runWorkflow(
        compiled.workflow,
        { name: "Ada" },
        {
          runId: "run-dify-jinja",
          recorder: new MemoryRunRecorder(),
          services: createTestServices({
            tools: createToolRegistry([
              createPythonTool({
                sandbox: pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: sandbox.stub.url }),
              }),
            ]),
          }),
        },
      );
      expect(result.status).toBe("succeeded");
      // tpl1's `upper` filter is dropped (reported at import); tpl2 loops over tpl1's text.
      expect(result.outputs).toEqual({ greeting: "Hello Ada! ", letters: "H-e-l-l-o- -A-d-a-!- -" });
    },
  );

  it.skipIf(!sandbox.python)(
    "an LLM's Jinja2 prompt with a {% for %} block reaches the model rendered, as Dify renders it",
    async () => {
      const compiled = compileWorkflow(importDifyWorkflow(readFixture("llm-jinja.yml")).document);
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
      const provider = await startFakeProvider();
      try {
        provider.server.script({ text: "1. Tides\n2. Moons" });
        const result = await runWorkflow(
          compiled.workflow,
          { topics: "tides, moons", audience: "children" },
          {
            runId: "run-dify-llm-jinja",
            recorder: new MemoryRunRecorder(),
            services: createTestServices({
              models: { resolve: async () => provider.model() },
              tools: createToolRegistry([
                createPythonTool({
                  sandbox: pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: sandbox.stub.url }),
                }),
              ]),
            }),
          },
        );
        expect(result).toMatchObject({ status: "succeeded", outputs: { outline: "1. Tides\n2. Moons" } });
        expect(provider.server.requests).toHaveLength(1);
        expect(provider.server.requests[0]!.body.messages).toEqual([
          { role: "system", content: "You write for children." },
          { role: "user", content: "Outline these topics:\n1. tides\n2. moons\n" },
        ]);
      } finally {
        await provider.close();
      }
    },
  );
});

import { describe, expect, it } from "vitest";
import { createCodeTool } from "../../tools/built-ins/code";
import { createPythonTool } from "../../tools/built-ins/python";
import { createToolRegistry } from "../../tools/registry";
import { pythonSandboxFromEnvironment } from "../../tools/sandbox/python-sandbox";
import { useDifySandboxStub } from "../../tools/sandbox/testing/use-dify-sandbox-stub";
import type { CodeConfig } from "../../workflow/nodes/code";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createTestServices, WorkflowBuilder } from "../testing";

type Outputs = CodeConfig["outputs"];

let runCount = 0;

/** start → code → end (the end reads every declared output), on the given code tools. */
async function runCode(
  code: string,
  outputs: Outputs,
  options: {
    language?: CodeConfig["language"];
    tools?: ReturnType<typeof createToolRegistry>;
    policy?: Record<string, unknown>;
  } = {},
) {
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [] })
    .add("code_1", "code", {
      errorStrategy: "fail-run",
      ...options.policy,
      language: options.language ?? "javascript",
      code,
      inputs: [],
      outputs,
    })
    .add("end", "end", {
      outputs: [
        { name: "whole", value: ["code_1", "result"] },
        ...outputs.map((output) => ({ name: output.name, value: ["code_1", output.name] })),
      ],
    })
    .chain("start", "code_1", "end")
    .build();
  const recorder = new MemoryRunRecorder();
  const result = await runWorkflow(
    workflow,
    {},
    {
      runId: `run-code-outputs-${++runCount}`,
      recorder,
      services: createTestServices({ tools: options.tools ?? createToolRegistry([createCodeTool()]) }),
    },
  );
  return { result, node: recorder.nodeRuns().find((row) => row.nodeId === "code_1") };
}

describe("a code node's declared outputs are checked when it runs, as Dify's are", () => {
  it("each declared output of its type, null for no value, fields not declared ignored", async () => {
    const { result, node } = await runCode(
      'function main() { return { text: "a", count: 2, ok: false, data: { k: 1 }, list: [1], none: null, extra: 5 }; }',
      [
        { name: "text", type: "string" },
        { name: "count", type: "number" },
        { name: "ok", type: "boolean" },
        { name: "data", type: "object" },
        { name: "list", type: "array" },
        { name: "none", type: "string" },
      ],
    );
    expect(result.status).toBe("succeeded");
    expect(node?.outputs).toMatchObject({ text: "a", count: 2, ok: false, data: { k: 1 }, list: [1], none: null });
    expect(result.outputs).toMatchObject({ whole: expect.objectContaining({ extra: 5 }), count: 2 });
  });

  it("a declared output the returned object lacks fails the node with code_output_missing, naming it", async () => {
    const { result, node } = await runCode(
      'function main() { console.log("about to return"); return { sumary: "typo" }; }',
      [{ name: "summary", type: "string" }],
    );
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("code_output_missing");
    expect(node).toMatchObject({ status: "failed", errorCode: "code_output_missing" });
    expect(node?.errorMessage).toContain('Output "summary" is missing');
    // What the code printed is kept for the inspector.
    expect(JSON.stringify(node?.processData?.logs)).toContain("about to return");
  });

  it("a value of another type fails the node with code_output_type, naming the output and both types", async () => {
    const { result, node } = await runCode('function main() { return { count: "12" }; }', [
      { name: "count", type: "number" },
    ]);
    expect(result.status).toBe("failed");
    expect(node).toMatchObject({ status: "failed", errorCode: "code_output_type" });
    expect(node?.errorMessage).toBe('Output "count" must be a number, but the code returned a string.');
  });

  it.each([
    ["an array for an object", "[1, 2]", "object", "an array"],
    ["an object for an array", "{ a: 1 }", "array", "an object"],
    ["a number for a string", "42", "string", "a number"],
    ["a string for a boolean", '"true"', "boolean", "a string"],
  ] as const)("%s is refused", async (_name, literal, type, described) => {
    const { node } = await runCode(`function main() { return { value: ${literal} }; }`, [{ name: "value", type }]);
    expect(node?.errorCode).toBe("code_output_type");
    expect(node?.errorMessage).toContain(`returned ${described}`);
  });

  it("a typed array's items are checked: each of its element type or null, as Dify checks array[number]", async () => {
    const ok = await runCode(
      'function main() { return { scores: [1, 2.5, null], tags: ["a"], rows: [{ k: 1 }, null], flags: [], any: [1, "a"] }; }',
      [
        { name: "scores", type: "array<number>" },
        { name: "tags", type: "array<string>" },
        { name: "rows", type: "array<object>" },
        { name: "flags", type: "array<boolean>" },
        { name: "any", type: "array" },
      ],
    );
    expect(ok.result.status).toBe("succeeded");
    expect(ok.node?.outputs).toMatchObject({ scores: [1, 2.5, null], rows: [{ k: 1 }, null] });
    const wrongItem = await runCode('function main() { return { scores: [1, "2", 3] }; }', [
      { name: "scores", type: "array<number>" },
    ]);
    expect(wrongItem.node?.errorCode).toBe("code_output_type");
    expect(wrongItem.node?.errorMessage).toBe(
      'Output "scores" must be an array of numbers, but the code returned an array whose item 1 is a string.',
    );
    const notArray = await runCode("function main() { return { rows: { k: 1 } }; }", [
      { name: "rows", type: "array<object>" },
    ]);
    expect(notArray.node?.errorMessage).toBe(
      'Output "rows" must be an array of objects, but the code returned an object.',
    );
  });

  it("a returned value that is not an object, with outputs declared, is code_output_missing", async () => {
    const { node } = await runCode('function main() { return "plain text"; }', [{ name: "summary", type: "string" }]);
    expect(node?.errorCode).toBe("code_output_missing");
    expect(node?.errorMessage).toBe("The code returned a string, not an object with its declared outputs (summary).");
  });

  it("a declared `result` is the returned object's field and is checked too", async () => {
    const passed = await runCode('function main() { return { result: "hi" }; }', [{ name: "result", type: "string" }]);
    expect(passed.result.outputs).toMatchObject({ whole: "hi", result: "hi" });
    const refused = await runCode("function main() { return { result: 3 }; }", [{ name: "result", type: "string" }]);
    expect(refused.node?.errorCode).toBe("code_output_type");
  });

  it("without declared outputs any value is the result", async () => {
    const { result } = await runCode('function main() { return "plain text"; }', []);
    expect(result).toMatchObject({ status: "succeeded", outputs: { whole: "plain text" } });
  });

  it("the node's error strategy applies: a default output makes the run partial, never succeeded", async () => {
    const { result, node } = await runCode("function main() { return {}; }", [{ name: "summary", type: "string" }], {
      policy: { errorStrategy: "default-output", defaultOutput: { summary: "n/a" } },
    });
    expect(node?.errorCode).toBe("code_output_missing");
    expect(result.status).toBe("partial");
    expect(result.outputs).toMatchObject({ summary: "n/a" });
  });
});

describe("a Python code node's declared outputs are checked the same way", () => {
  const sandbox = useDifySandboxStub();

  it.skipIf(!sandbox.python)("a missing output and a wrong type fail; a right one passes", async () => {
    const tools = createToolRegistry([
      createPythonTool({ sandbox: pythonSandboxFromEnvironment({ TRELLIS_CODE_SANDBOX_URL: sandbox.stub.url }) }),
    ]);
    const run = (body: string, outputs: Outputs) =>
      runCode(`def main() -> dict:\n    return ${body}\n`, outputs, { language: "python3", tools });
    const missing = await run('{"words": 3}', [{ name: "count", type: "number" }]);
    expect(missing.node).toMatchObject({ status: "failed", errorCode: "code_output_missing" });
    const wrong = await run('{"count": "3"}', [{ name: "count", type: "number" }]);
    expect(wrong.node).toMatchObject({ status: "failed", errorCode: "code_output_type" });
    const right = await run('{"count": 3, "tags": ["a"]}', [
      { name: "count", type: "number" },
      { name: "tags", type: "array" },
    ]);
    expect(right.result).toMatchObject({ status: "succeeded", outputs: { count: 3, tags: ["a"] } });
  });
});

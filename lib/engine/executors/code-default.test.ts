import { describe, expect, it } from "vitest";
import { createCodeTool } from "../../tools/built-ins/code";
import { createToolRegistry } from "../../tools/registry";
import { codeConfigSchema, codeNode } from "../../workflow/nodes/code";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createTestServices, WorkflowBuilder } from "../testing";

describe("a freshly dropped code node", () => {
  it("runs its own default code in the real sandbox", async () => {
    const defaults = codeNode.defaults();
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "question", type: "string" }] })
      .add("code_1", "code", { ...defaults, inputs: [{ name: "input", value: "{{start.question}}" }] })
      .add("end", "end", { outputs: [{ name: "answer", value: ["code_1", "result"] }] })
      .chain("start", "code_1", "end")
      .build();
    const services = createTestServices({ tools: createToolRegistry([createCodeTool()]) });
    const result = await runWorkflow(
      workflow,
      { question: "hello" },
      { runId: "run-code-default", recorder: new MemoryRunRecorder(), services },
    );
    expect(result.status).toBe("succeeded");
    // The declared `result` output is the returned object's `result` field.
    expect(result.outputs).toEqual({ answer: "hello" });
  });

  it("accepts an output named result and refuses one named error", () => {
    const base = { code: "function main() { return {}; }", inputs: [] };
    expect(codeConfigSchema.safeParse({ ...base, outputs: [{ name: "result", type: "string" }] }).success).toBe(true);
    const refused = codeConfigSchema.safeParse({ ...base, outputs: [{ name: "error", type: "string" }] });
    expect(refused.success).toBe(false);
    expect(codeNode.outputFields(codeConfigSchema.parse({ ...base, outputs: [{ name: "result" }] }))).toEqual([
      { name: "result", type: "string" },
    ]);
  });
});

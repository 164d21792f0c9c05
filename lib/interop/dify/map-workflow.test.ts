import { describe, expect, it } from "vitest";
import { compileWorkflow } from "../../workflow/compile";
import type { WorkflowDocument, WorkflowNode } from "../../workflow/document";
import type { NodeImportEntry } from "../report";
import { type DifyImport, importDifyWorkflow } from "./map-workflow";
import { fixtureNames, readFixture } from "./testing/fixtures";

function load(name: string): DifyImport {
  return importDifyWorkflow(readFixture(name));
}
function node(document: WorkflowDocument, id: string): WorkflowNode {
  const found = document.nodes.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
}
function entry(result: DifyImport, sourceId: string): NodeImportEntry {
  const found = result.report.nodes.find((candidate) => candidate.sourceId === sourceId);
  if (!found) throw new Error(`no entry ${sourceId}`);
  return found;
}
function edge(document: WorkflowDocument, source: string, target: string) {
  return document.edges.find((candidate) => candidate.source === source && candidate.target === target);
}

describe("a chatflow as Dify exports it today", () => {
  const result = () => load("app-chatflow-v2-shapes.yml");

  it("sends the chat message (the memory's query template) as the LLM's user prompt, without the files", () => {
    const imported = result();
    const start = imported.document.nodes.find((item) => item.type === "start");
    if (!start) throw new Error("no start node");
    expect(node(imported.document, "chat1").data).toMatchObject({
      systemPrompt: "It is {{clock1.result}}. Answer briefly.",
      userPrompt: `{{${start.id}.query}}`,
    });
    expect((start.data as unknown as { inputs: unknown[] }).inputs).toContainEqual(
      expect.objectContaining({ name: "query", type: "string", required: true }),
    );
    expect(entry(imported, "chat1").changes).toContain(
      "Uploaded files are not passed to the model (the files reference was left out)",
    );
  });

  it("gives an LLM without a chosen model the default model, and says so", () => {
    const imported = result();
    expect(node(imported.document, "chat1").data.model).toEqual({ provider: "default", model: "gpt-4o-mini" });
    expect(entry(imported, "chat1").changes.some((change) => change.startsWith("No model was chosen"))).toBe(true);
  });

  it("reads a version-2 tool node's settings as inputs: templates, constants, lists as JSON", () => {
    expect(node(result().document, "clock1").data.arguments).toEqual({
      format: "%H:%M",
      zone: "UTC",
      fields: '["hour","minute"]',
    });
  });
});

describe("an LLM in a workflow app", () => {
  it("gets no chat message and no memory note (no sys.query, memory does nothing there)", () => {
    const imported = importDifyWorkflow(
      readFixture("app-chatflow-v2-shapes.yml").replace("mode: advanced-chat", "mode: workflow"),
    );
    expect(node(imported.document, "chat1").data.userPrompt).toBe("");
    expect(entry(imported, "chat1").changes.some((change) => change.includes("memory"))).toBe(false);
  });
});

describe("an iteration's flatten_output", () => {
  it("becomes flattenOutput, with nothing to report", () => {
    const source = readFixture("iteration.yml");
    const imported = importDifyWorkflow(source.replace("is_parallel:", "flatten_output: true\n          is_parallel:"));
    const iteration = imported.document.nodes.find((item) => item.type === "iteration");
    expect(iteration?.data.flattenOutput).toBe(true);
    expect(
      importDifyWorkflow(source).document.nodes.find((item) => item.type === "iteration")?.data.flattenOutput,
    ).toBe(undefined);
  });
});

describe("memory outside a chatflow", () => {
  it("is reported only where it holds a conversation (a chatflow), not in a workflow app", () => {
    const withMemory = (mode: string) =>
      importDifyWorkflow(
        readFixture("question-classifier.yml")
          .replace("mode: workflow", `mode: ${mode}`)
          .replace(
            '          instruction: ""',
            '          instruction: ""\n          memory: { window: { enabled: false, size: 10 } }',
          ),
      );
    const note = "Conversation memory is not kept between runs";
    expect(entry(withMemory("workflow"), "qc1").changes).not.toContain(note);
    expect(entry(withMemory("advanced-chat"), "qc1").changes).toContain(note);
  });
});

describe("every fixture", () => {
  it.each(fixtureNames())(
    "%s imports, reports every source node, and compiles unless a placeholder or unresolved reference says why",
    (name) => {
      const result = load(name);
      // Each source node (notes aside) has one report entry.
      expect(result.report.nodes.length).toBe(
        result.report.summary.mapped + result.report.summary.changed + result.report.summary.unsupported,
      );
      for (const entryItem of result.report.nodes) {
        if (entryItem.status === "changed") expect(entryItem.changes.length).toBeGreaterThan(0);
        if (entryItem.status === "unsupported") expect(entryItem.reason).toBeTruthy();
      }
      const compiled = compileWorkflow(result.document);
      expect(compiled.ok).toBe(result.report.compile.ok);
      if (compiled.ok) return;
      // Every blocking issue is at a placeholder, at an unresolved tool, or reads a placeholder's output.
      const placeholders = new Set(
        result.report.nodes.filter((item) => item.status === "unsupported").map((item) => item.nodeId),
      );
      const unresolvedTools = new Set(result.report.references.flatMap((reference) => reference.nodeIds));
      for (const issue of compiled.issues.filter((item) => item.severity === "error")) {
        const explained =
          (issue.code === "unsupported_node" && placeholders.has(issue.nodeId!)) ||
          (issue.code === "missing_required_input" &&
            unresolvedTools.has(issue.nodeId!) &&
            issue.path.join(".") === "data.tool") ||
          (issue.code === "unknown_variable" && [...placeholders].some((id) => issue.message.includes(`{{${id}.`)));
        expect(explained, `${issue.code} ${issue.nodeId} ${issue.message}`).toBe(true);
      }
    },
  );

  it("covers every node type the importer maps", () => {
    const types = new Set(fixtureNames().flatMap((name) => load(name).report.nodes.map((item) => item.sourceType)));
    for (const type of [
      "start",
      "llm",
      "agent",
      "tool",
      "http-request",
      "code",
      "if-else",
      "iteration",
      "iteration-start",
      "template-transform",
      "variable-aggregator",
      "variable-assigner",
      "trigger-schedule",
      "trigger-webhook",
      "list-operator",
      "parameter-extractor",
      "question-classifier",
      "end",
      "answer",
      "human-input",
    ]) {
      expect(types.has(type), type).toBe(true);
    }
  });
});

describe("node by node", () => {
  it("start: variables keep type, required and label; end: outputs keep their selectors", () => {
    const result = load("start.yml");
    expect(node(result.document, "1733000000001").data).toMatchObject({
      title: "Start",
      description: "Collects the inputs",
      inputs: [
        { name: "topic", type: "string", required: true, description: "Topic" },
        { name: "details", type: "string", required: false },
        { name: "tone", type: "string", required: true, description: "Tone — One of: formal, casual" },
        { name: "count", type: "number", required: false },
      ],
    });
    expect(node(result.document, "1733000000001").position).toEqual({ x: 80, y: 282 });
    expect(node(result.document, "1733000000002").data.outputs).toEqual([
      { name: "topic", value: ["1733000000001", "topic"] },
      { name: "tone", value: ["1733000000001", "tone"] },
    ]);
    expect(entry(result, "1733000000001").changes).toEqual([
      'Input "topic": the maximum length 48 is not enforced',
      'Input "tone": the choices (formal, casual) are kept in its description only',
    ]);
    expect(entry(result, "1733000000002").status).toBe("mapped");
    expect(result.report.compile.ok).toBe(true);
  });

  it("llm: roles, context, model parameters and retry", () => {
    const result = load("llm.yml");
    expect(node(result.document, "llm1").data).toMatchObject({
      title: "Answer",
      description: "Answers the question",
      model: { provider: "default", model: "gpt-4o" },
      systemPrompt: "You are helpful. Context: {{start1.question}}",
      userPrompt: "{{start1.question}}",
      temperature: 0.2,
      maxTokens: 512,
      responseFormat: "text",
      retry: { maxAttempts: 3, intervalMs: 500, backoff: "fixed" },
    });
    expect(node(result.document, "end1").data.outputs).toEqual([{ name: "answer", value: ["llm1", "text"] }]);
    expect(entry(result, "llm1").changes).toEqual([
      'Model provider "langgenius/openai/openai" became the workspace\'s default provider (model "gpt-4o" kept)',
    ]);
  });

  it("llm: reasoning_format kept (tagged when absent, as in Dify), reasoning_content read as reasoning", () => {
    const separated = load("llm-reasoning.yml");
    expect(node(separated.document, "llm1").data).toMatchObject({
      reasoningFormat: "separated",
      reasoningEffort: "high",
    });
    expect(JSON.stringify(entry(separated, "llm1").changes)).not.toContain("not carried over");
    expect(node(separated.document, "end1").data.outputs).toEqual([
      { name: "answer", value: ["llm1", "text"] },
      { name: "thinking", value: ["llm1", "reasoning"] },
    ]);
    expect(node(load("llm.yml").document, "llm1").data).toMatchObject({ reasoningFormat: "tagged" });
  });

  it("llm: a Jinja2 prompt with blocks is rendered by a Python node placed before it; plain Jinja2 becomes a template", () => {
    const result = load("llm-jinja.yml");
    expect(node(result.document, "llm1").data).toMatchObject({
      systemPrompt: "You write for {{start1.audience}}.",
      userPrompt: "{{llm1-prompt.message1}}",
    });
    expect(node(result.document, "llm1-prompt")).toMatchObject({
      type: "code",
      position: { x: 100, y: 110 },
      data: {
        title: "Outline · prompt",
        language: "python3",
        inputs: [
          { name: "topics", value: ["start1", "topics"] },
          { name: "audience", value: ["start1", "audience"] },
        ],
        outputs: [{ name: "message1", type: "string" }],
      },
    });
    expect(String(node(result.document, "llm1-prompt").data.code)).toContain(
      `"message1": ${JSON.stringify("Outline these topics:\n{% for topic in topics.split(',') %}{{ loop.index }}. {{ topic | trim }}\n{% endfor %}")}`,
    );
    // The start's edge now arrives at the renderer, which leads to the LLM.
    expect(edge(result.document, "start1", "llm1-prompt")).toBeDefined();
    expect(edge(result.document, "llm1-prompt", "llm1")).toBeDefined();
    expect(edge(result.document, "start1", "llm1")).toBeUndefined();
    expect(entry(result, "llm1").changes.join(" ")).toContain('the Python code node "Outline · prompt" before it');
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("llm: the prompt renderer of an LLM first in an iteration body runs first in that body", () => {
    const text = readFixture("app-llm-iteration.yml").replace(
      '- { role: user, text: "Expand point {{#each.index#}}: {{#each.item#}}" }',
      `- { role: user, text: "", edition_type: jinja2, jinja2_text: "Expand {% if point %}{{ point }}{% endif %}" }
          prompt_config: { jinja2_variables: [{ variable: point, value_selector: [each, item] }] }`,
    );
    const result = importDifyWorkflow(text);
    expect(node(result.document, "expand-prompt")).toMatchObject({ parentId: "each", type: "code" });
    expect(node(result.document, "expand").parentId).toBe("each");
    expect(result.document.edges.filter((edge) => edge.target === "expand" || edge.target === "expand-prompt")).toEqual(
      [
        {
          id: "expand-prompt-expand",
          source: "expand-prompt",
          sourceHandle: "out",
          target: "expand",
          targetHandle: "in",
        },
      ],
    );
    expect(node(result.document, "expand-prompt").data.inputs).toEqual([{ name: "point", value: ["item"] }]);
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("agent: ReAct strategy, built-in tools mapped, plugin tools reported as references", () => {
    const result = load("agent.yml");
    expect(node(result.document, "agent1").data).toMatchObject({
      mode: "react",
      model: { provider: "default", model: "gpt-4o-mini" },
      tools: ["current_time"],
      unresolvedTools: ["tavily/tavily_search"],
      instructions: "You help with scheduling.",
      query: "{{start1.task}}",
      limits: { maxIterations: 5 },
      // The model's completion params, read as an LLM node's are.
      temperature: 0.2,
      reasoningEffort: "low",
    });
    expect(entry(result, "agent1").changes).toContain("Model parameters not carried over: top_p");
    expect(node(result.document, "end1").data.outputs).toEqual([{ name: "answer", value: ["agent1", "answer"] }]);
    expect(result.report.references).toEqual([
      expect.objectContaining({ kind: "tool", name: "tavily/tavily_search", nodeIds: ["agent1"], available: false }),
    ]);
  });

  it("tool: a built-in maps with its arguments; another is an unresolved reference; a secret setting is a slot", () => {
    const result = load("tool.yml");
    expect(node(result.document, "time1").data).toMatchObject({
      tool: "current_time",
      arguments: { timezone: "{{start1.zone}}" },
    });
    expect(entry(result, "time1").changes).toEqual([
      'The setting "format" has no counterpart on "current_time" and was left out',
    ]);
    expect(node(result.document, "search1").data).toMatchObject({
      tool: "",
      unresolvedTool: "google/google_search",
      arguments: { result_type: "link", query: "{{time1.result}}" },
    });
    expect(result.report.secrets).toEqual([
      expect.objectContaining({
        kind: "tool-credential",
        name: "google/google_search:serpapi_api_key",
        nodeId: "search1",
        hadValue: true,
      }),
    ]);
    expect(JSON.stringify(result.document)).not.toContain("sk-serp-should-never-be-stored");
    expect(result.report.compile.issues).toEqual([
      expect.objectContaining({ code: "missing_required_input", nodeId: "search1", path: ["data", "tool"] }),
    ]);
  });

  it("http-request: method, URL, headers, query, JSON body, default outputs; the API key and the secret variable become empty slots", () => {
    const result = load("http-request.yml");
    expect(node(result.document, "http1").data).toMatchObject({
      method: "POST",
      url: "{{env.API_BASE}}/weather",
      headers: [
        { key: "Content-Type", value: "application/json" },
        { key: "X-Trace", value: "{{start1.city}}" },
      ],
      query: [{ key: "units", value: "metric" }],
      body: { type: "json", content: '{"city": "{{start1.city}}"}' },
      credential: "dify_weather_api",
      errorStrategy: "default-output",
      defaultOutput: { body: "{}", status: 0 },
    });
    expect(node(result.document, "end1").data.outputs).toEqual([
      { name: "body", value: ["http1", "body"] },
      { name: "status", value: ["http1", "status"] },
    ]);
    const stored = JSON.stringify(result.document);
    expect(stored).not.toContain("sk-http-should-never-be-stored");
    expect(stored).not.toContain("tok-env-secret-value");
    expect(result.report.secrets.map((slot) => [slot.kind, slot.name, slot.hadValue])).toEqual([
      ["environment-variable", "SERVICE_TOKEN", true],
      ["http-credential", "dify_weather_api", true],
    ]);
    expect(JSON.stringify(result.report)).not.toContain("sk-http-should-never-be-stored");
    expect(result.report.notes.some((note) => note.includes("TRELLIS_PUBLIC_API_BASE"))).toBe(true);
  });

  it("code: JavaScript runs as written; its outputs, `result` too, stay declared with their types", () => {
    const result = load("code.yml");
    const code = node(result.document, "js1").data;
    expect(code).toMatchObject({
      language: "javascript",
      inputs: [
        { name: "arg1", value: ["start1", "a"] },
        { name: "arg2", value: ["start1", "b"] },
      ],
      outputs: [
        { name: "result", type: "number" },
        { name: "doubled", type: "number" },
      ],
    });
    expect(code.code).toContain("function main({arg1, arg2})");
    expect(node(result.document, "end1").data.outputs).toEqual([
      { name: "sum", value: ["js1", "result"] },
      { name: "doubled", value: ["js1", "doubled"] },
    ]);
  });

  it("code: Python is kept as Python, for the code sandbox service; the report says what it needs", () => {
    const result = load("code-python.yml");
    expect(entry(result, "py1")).toMatchObject({ status: "changed", trellisType: "code" });
    expect(entry(result, "py1").changes.join(" ")).toContain("TRELLIS_CODE_SANDBOX_URL");
    expect(node(result.document, "py1").data).toMatchObject({
      title: "Count words",
      language: "python3",
      code: 'def main(arg1: str) -> dict:\n    return {"result": len(arg1.split())}\n',
      inputs: [{ name: "arg1", value: ["start1", "text"] }],
    });
    expect(node(result.document, "py1").data.outputs).toEqual([{ name: "result", type: "number" }]);
    expect(node(result.document, "end1").data.outputs).toEqual([{ name: "words", value: ["py1", "result"] }]);
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("if-else: cases with logical operators and typed values; handles are case ids and else", () => {
    const result = load("if-else.yml");
    expect(node(result.document, "if1").data.cases).toEqual([
      {
        id: "case-urgent",
        label: "If",
        logic: "or",
        conditions: [
          { left: ["start1", "subject"], operator: "contains", right: "urgent" },
          { left: ["start1", "subject"], operator: "starts-with", right: "ASAP" },
        ],
      },
      {
        id: "case-big",
        label: "Else if 1",
        logic: "and",
        conditions: [
          { left: ["start1", "amount"], operator: "≥", right: 1000 },
          { left: ["start1", "subject"], operator: "is-not-empty", right: "" },
        ],
      },
    ]);
    expect(edge(result.document, "if1", "endUrgent")?.sourceHandle).toBe("case-urgent");
    expect(edge(result.document, "if1", "endBig")?.sourceHandle).toBe("case-big");
    expect(edge(result.document, "if1", "endOther")?.sourceHandle).toBe("else");
    expect(result.report.compile.ok).toBe(true);
  });

  it("iteration: body nodes keep their parent, item/index map to {{item}}/{{index}}, the iteration-start is absorbed", () => {
    const result = load("iteration.yml");
    expect(node(result.document, "iter1")).toMatchObject({
      width: 508,
      height: 204,
      data: {
        input: ["split1", "items"],
        outputSelector: ["upper1", "text"],
        parallel: true,
        concurrency: 4,
        errorMode: "continue",
      },
    });
    expect(node(result.document, "upper1")).toMatchObject({
      parentId: "iter1",
      position: { x: 117, y: 85 },
      data: { template: "{{index}}: {{item}}" },
    });
    expect(result.document.nodes.some((candidate) => candidate.id === "iter1start")).toBe(false);
    expect(result.document.edges.some((candidate) => candidate.source === "iter1start")).toBe(false);
    expect(entry(result, "iter1start")).toMatchObject({ status: "changed", trellisType: "(none)" });
    expect(result.report.compile.ok).toBe(true);
  });

  it("template-transform: plain variables map, filters and comments are reported, blocks make a placeholder", () => {
    const result = load("template-transform.yml");
    expect(node(result.document, "tpl1").data.template).toBe("Hello {{start1.name}}! ");
    expect(entry(result, "tpl1").changes).toEqual([
      "Jinja2 comments {# … #} were removed",
      'Filter "| upper" on name was dropped',
    ]);
    // Blocks need Jinja2 itself: a Python code node renders the template as Dify does.
    expect(entry(result, "tpl2")).toMatchObject({ status: "changed", trellisType: "code" });
    expect(entry(result, "tpl2").changes.join(" ")).toContain("TRELLIS_CODE_SANDBOX_URL");
    expect(node(result.document, "tpl2").data).toMatchObject({
      language: "python3",
      inputs: [{ name: "text", value: ["tpl1", "text"] }],
      outputs: [{ name: "output", type: "string" }],
    });
    expect(String(node(result.document, "tpl2").data.code)).toContain(
      '"output": "{% for letter in text %}{{ letter }}-{% endfor %}"',
    );
    expect(node(result.document, "end1").data.outputs).toEqual([
      { name: "greeting", value: ["tpl1", "text"] },
      { name: "letters", value: ["tpl2", "output"] },
    ]);
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("variable-aggregator: a code node returning the first value set; the old single-condition if-else keeps its true handle", () => {
    const result = load("variable-aggregator.yml");
    expect(node(result.document, "agg1").data).toMatchObject({
      inputs: [
        { name: "value0", value: ["yes1", "text"] },
        { name: "value1", value: ["no1", "text"] },
      ],
    });
    expect(node(result.document, "agg1").type).toBe("code");
    expect(node(result.document, "if1").data.cases).toEqual([
      {
        id: "true",
        label: "If",
        logic: "and",
        conditions: [{ left: ["start1", "flag"], operator: "equals", right: "yes" }],
      },
    ]);
    expect(edge(result.document, "if1", "yes1")?.sourceHandle).toBe("true");
    expect(edge(result.document, "if1", "no1")?.sourceHandle).toBe("else");
    expect(node(result.document, "end1").data.outputs).toEqual([{ name: "text", value: ["agg1", "result"] }]);
  });

  it("parameter-extractor: an LLM with a JSON schema; parameters read json fields", () => {
    const result = load("parameter-extractor.yml");
    expect(node(result.document, "pe1")).toMatchObject({
      type: "llm",
      data: {
        responseFormat: "json",
        userPrompt: "{{start1.request}}",
        temperature: 0,
        jsonSchema: {
          type: "object",
          properties: {
            city: { type: "string" },
            nights: { type: "number" },
            room: { type: "string", enum: ["single", "double"] },
          },
          required: ["city"],
        },
      },
    });
    expect(String(node(result.document, "pe1").data.systemPrompt)).toContain("Dates are ISO 8601.");
    expect(node(result.document, "end1").data.outputs).toEqual([
      { name: "city", value: ["pe1", "json", "city"] },
      { name: "nights", value: ["pe1", "json", "nights"] },
    ]);
  });

  it("question-classifier: an LLM plus a router whose cases are the classes; class edges leave from the router", () => {
    const result = load("question-classifier.yml");
    expect(node(result.document, "qc1").type).toBe("llm");
    expect(node(result.document, "qc1-route")).toMatchObject({
      type: "condition",
      data: {
        cases: [
          {
            id: "1",
            label: "Billing question",
            conditions: [{ left: ["qc1", "json", "class_id"], operator: "equals", right: "1" }],
          },
          {
            id: "2",
            label: "Technical problem",
            conditions: [{ left: ["qc1", "json", "class_id"], operator: "equals", right: "2" }],
          },
        ],
      },
    });
    expect(edge(result.document, "qc1", "qc1-route")).toBeDefined();
    expect(edge(result.document, "qc1-route", "endBilling")?.sourceHandle).toBe("1");
    expect(edge(result.document, "qc1-route", "endTech")?.sourceHandle).toBe("2");
    expect(node(result.document, "endBilling").data.outputs).toEqual([
      { name: "label", value: ["qc1", "json", "class_name"] },
    ]);
    expect(result.report.compile.ok).toBe(true);
  });

  it("answer (advanced-chat): sys.query and conversation variables become start inputs; a mid-flow answer becomes a template; notes are kept", () => {
    const result = load("answer.yml");
    expect(node(result.document, "start1").data.inputs).toEqual([
      { name: "user_name", type: "string", required: false, description: "How to address the user", default: "Friend" },
      { name: "query", type: "string", required: true, description: "The user's message (Dify sys.query)" },
    ]);
    expect(node(result.document, "greet1")).toMatchObject({
      type: "template",
      data: { template: "Hello {{start1.user_name}}, one moment…" },
    });
    expect(node(result.document, "answer1")).toMatchObject({
      type: "end",
      data: { outputs: [{ name: "answer", value: "{{llm1.text}}" }] },
    });
    expect(node(result.document, "llm1").data.userPrompt).toBe("{{start1.query}}");
    expect(entry(result, "llm1").changes).toContain("Vision is off: image inputs are not passed to the model");
    // The memory's query template is the same message the user prompt already is: sent once.
    expect(entry(result, "llm1").changes).toContain(
      "Conversation memory is not kept between runs: the chat message ends the user prompt, without history",
    );
    expect(result.report.notes).toContain("Note: Greets, then answers.");
    expect(result.report.notes.some((note) => note.includes("opening_statement"))).toBe(true);
    expect(result.description).toContain("Greets, then answers.");
    expect(result.report.nodes.some((item) => item.sourceId === "note1")).toBe(false);
  });

  it("human-input: fields from the form, the actions become a routed choice", () => {
    const result = load("human-input.yml");
    expect(node(result.document, "ask1").data).toMatchObject({
      prompt: "Please review: {{start1.draft}}",
      fields: [
        { name: "comment", type: "text", required: true },
        { name: "action", type: "select", options: ["approve", "reject"] },
      ],
      timeoutMs: 86_400_000,
    });
    expect(edge(result.document, "ask1-route", "endYes")?.sourceHandle).toBe("approve");
    expect(edge(result.document, "ask1-route", "endNo")?.sourceHandle).toBe("reject");
    expect(result.report.compile.ok).toBe(true);
  });

  it("knowledge-retrieval: a visible placeholder that keeps the edges; the compiler points at it and at what reads it", () => {
    const result = load("knowledge-retrieval.yml");
    expect(node(result.document, "kr1")).toMatchObject({
      type: "template",
      position: { x: 334, y: 250 },
      data: {
        title: "Unsupported: Search the handbook",
        unsupported: { sourceType: "knowledge-retrieval", reason: "Knowledge bases (datasets) do not exist here" },
      },
    });
    expect(edge(result.document, "start1", "kr1")).toBeDefined();
    expect(edge(result.document, "kr1", "llm1")).toBeDefined();
    expect(result.report.compile.issues.map((issue) => [issue.code, issue.nodeId])).toEqual([
      ["unsupported_node", "kr1"],
      ["unknown_variable", "llm1"],
    ]);
  });
});

describe("unsupported containers", () => {
  it("a loop becomes a placeholder of its size; the nodes inside it say where they are", () => {
    const result = importDifyWorkflow(`
app: {mode: workflow, name: Loop}
kind: app
version: 0.3.0
workflow:
  graph:
    edges:
    - {source: s, sourceHandle: source, target: loop1, targetHandle: target}
    - {source: loop1, sourceHandle: source, target: e, targetHandle: target}
    nodes:
    - {id: s, type: custom, position: {x: 0, y: 0}, data: {type: start, title: Start, variables: []}}
    - {id: loop1, type: custom, position: {x: 300, y: 0}, width: 400, height: 200, data: {type: loop, title: Retry, loop_count: 3, break_conditions: []}}
    - {id: body1, type: custom, parentId: loop1, position: {x: 40, y: 60}, data: {type: template-transform, title: Step, isInLoop: true, loop_id: loop1, variables: [], template: step}}
    - {id: e, type: custom, position: {x: 800, y: 0}, data: {type: end, title: End, outputs: []}}
`);
    expect(node(result.document, "loop1")).toMatchObject({
      type: "template",
      width: 400,
      height: 200,
      data: { title: "Unsupported: Retry" },
    });
    expect(entry(result, "body1").changes).toContain(
      "It sits inside an unsupported container: move it out or replace the container",
    );
    expect(result.document.edges.map((item) => [item.source, item.target])).toEqual([
      ["s", "loop1"],
      ["loop1", "e"],
    ]);
    expect(result.report.compile.issues.map((issue) => [issue.code, issue.nodeId])).toEqual(
      expect.arrayContaining([
        ["unsupported_node", "loop1"],
        ["invalid_parent", "body1"],
      ]),
    );
  });
});

describe("realistic apps", () => {
  it("translation chain: two LLMs and a template, compiles", () => {
    const result = load("app-translation-chain.yml");
    expect(result.name).toBe("Translation chain");
    expect(node(result.document, "1711067817657").data.template).toBe(
      "{{1711067409646.language}}: {{1711067578643.text}}",
    );
    expect(node(result.document, "1711067578643").data.userPrompt).toBe(
      "Original:\n{{1711067409646.text}}\n\nTranslation:\n{{1711067429876.text}}",
    );
    expect(result.report.compile.ok).toBe(true);
  });

  it("agent with tools: function calling with the two built-ins; the plugin tool is a reference", () => {
    const result = load("app-agent-with-tools.yml");
    expect(node(result.document, "1740000000002").data).toMatchObject({
      mode: "function_call",
      tools: ["current_time", "calculator"],
      query: "{{1740000000001.query}}",
    });
    expect(result.report.references.map((reference) => reference.name)).toEqual(["tavily/tavily_search"]);
    expect(result.report.notes.some((note) => note.includes("2 Dify plugin dependencies"))).toBe(true);
    expect(result.report.compile.ok).toBe(true);
  });

  it("iteration over a list with code and HTTP nodes: the body reads {{item}} and the HTTP status", () => {
    const result = load("app-iteration-code-http.yml");
    // Dify's array[string] output stays an array of strings: checked when the code runs, and the
    // iteration's item is a string for the compiler.
    expect(node(result.document, "1750000000002").data.outputs).toEqual([{ name: "list", type: "array<string>" }]);
    expect(node(result.document, "1750000000004")).toMatchObject({
      parentId: "1750000000003",
      data: { method: "GET", url: "{{item}}" },
    });
    expect(node(result.document, "1750000000005").data.inputs).toEqual([
      { name: "status", value: ["1750000000004", "status"] },
      { name: "url", value: ["item"] },
    ]);
    expect(edge(result.document, "1750000000004", "1750000000005")).toBeDefined();
    expect(result.report.compile.ok).toBe(true);
  });
});

describe("files from newer Dify versions and its export API", () => {
  it("Dify's export API answer ({ data: <the YAML> }) imports as the YAML it carries", () => {
    const yaml = readFixture("template-transform.yml");
    const wrapped = importDifyWorkflow(JSON.stringify({ data: yaml }));
    expect(wrapped.document).toEqual(load("template-transform.yml").document);
    expect(wrapped.report.source).toEqual(load("template-transform.yml").report.source);
  });

  it("an answer inside an iteration becomes a template node in the body (an end node cannot be there)", () => {
    const result = load("answer-in-iteration.yml");
    expect(node(result.document, "say1")).toMatchObject({
      type: "template",
      parentId: "iter1",
      data: { template: "Working on {{upper1.text}}" },
    });
    expect(entry(result, "say1").changes.join(" ")).toContain("inside an iteration");
    expect(node(result.document, "end1").type).toBe("end");
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("a code output named error (reserved here) is read from the returned value", () => {
    const result = load("code-error-output.yml");
    expect(node(result.document, "parse1").data.outputs).toEqual([{ name: "command", type: "string" }]);
    expect(node(result.document, "end1").data.outputs).toEqual([
      { name: "command", value: ["parse1", "command"] },
      { name: "problem", value: ["parse1", "result", "error"] },
    ]);
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("a schedule trigger becomes the start node, and the report gives its cron and time zone", () => {
    const result = load("trigger-schedule.yml");
    expect(node(result.document, "1769609753351")).toMatchObject({ type: "start", data: { inputs: [] } });
    expect(entry(result, "1769609753351")).toMatchObject({ status: "changed", trellisType: "start" });
    expect(entry(result, "1769609753351").changes).toEqual([
      'Dify\'s schedule trigger became the start node: add the schedule with Schedule after saving (cron "30 19 * * 1,5", time zone Europe/Paris)',
    ]);
    expect(result.report.notes).not.toContain("The file has no start node; one was added");
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });

  it("a webhook trigger becomes the start node with its query and body fields as typed inputs", () => {
    const result = load("trigger-webhook.yml");
    expect(node(result.document, "hook1")).toMatchObject({
      type: "start",
      data: {
        inputs: [
          { name: "source", type: "string", required: false },
          { name: "order_id", type: "string", required: true },
          { name: "amount", type: "number", required: true },
        ],
      },
    });
    expect(entry(result, "hook1").changes.join(" ")).toContain("X-Signature");
    expect(node(result.document, "tpl1").data.template).toBe("Order {{hook1.order_id}}: {{hook1.amount}}");
    expect(result.report.compile).toEqual({ ok: true, issues: [] });
  });
});

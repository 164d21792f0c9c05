import type { WorkflowDocument, WorkflowNode } from "../document";
import type { ExampleWorkflow } from "../examples/example-workflow";
import { DEFAULT_MODEL } from "../nodes/common-schemas";

/*
 * Templates offered in the gallery beside the seeded examples: small flows a new user copies and
 * adapts. Each runs end to end on the offline demo model and the local demo web APIs
 * (`lib/services/templates.test.ts`), so trying one never needs an API key.
 */

type Spec = { id: string; type: string; title: string; data?: Record<string, unknown>; parentId?: string };

/** Top-level nodes chained left to right in the order given; body nodes go inside their container. */
function chain(specs: Spec[], extraEdges: { source: string; target: string }[] = []): WorkflowDocument {
  const topLevel = specs.filter((spec) => !spec.parentId);
  const nodes: WorkflowNode[] = specs.map((spec) => {
    const column = topLevel.indexOf(spec);
    return {
      id: spec.id,
      type: spec.type,
      position: spec.parentId ? { x: 40, y: 80 } : { x: column * 300, y: 100 },
      ...(spec.parentId ? { parentId: spec.parentId } : {}),
      ...(spec.type === "iteration" ? { width: 360, height: 220 } : {}),
      data: { title: spec.title, ...spec.data },
    };
  });
  const edges = [
    ...topLevel.slice(1).map((spec, index) => ({ source: topLevel[index].id, target: spec.id })),
    ...extraEdges,
  ].map((edge, index) => ({ id: `e${index + 1}`, ...edge }));
  return { schemaVersion: 4, nodes, edges };
}

const model = { ...DEFAULT_MODEL };

export const summarizeTemplate: ExampleWorkflow = {
  slug: "template-summarize",
  name: "Summarize a text",
  description: "One LLM call: paste a text, get a three-sentence summary.",
  document: chain([
    {
      id: "start",
      type: "start",
      title: "Start",
      data: {
        inputs: [
          {
            name: "text",
            type: "string",
            required: true,
            default: "Trellis is a self-hostable visual builder for LLM agent workflows with durable runs.",
          },
        ],
      },
    },
    {
      id: "summarize",
      type: "llm",
      title: "Summarize",
      data: {
        model,
        systemPrompt: "You write faithful, plain summaries.",
        userPrompt: "Summarize in at most three sentences:\n\n{{start.text}}",
      },
    },
    { id: "end", type: "end", title: "End", data: { outputs: [{ name: "summary", value: "{{summarize.text}}" }] } },
  ]),
};

export const triageTemplate: ExampleWorkflow = {
  slug: "template-triage",
  name: "Triage a support message",
  description: "A code node sorts a message into billing, bug or question by keywords; a template writes the reply.",
  document: chain([
    {
      id: "start",
      type: "start",
      title: "Start",
      data: {
        inputs: [{ name: "message", type: "string", required: true, default: "I was charged twice, please refund." }],
      },
    },
    {
      id: "classify",
      type: "code",
      title: "Classify",
      data: {
        code: [
          "function main({ message }) {",
          "  const text = String(message).toLowerCase();",
          '  if (/refund|charge|invoice|bill/.test(text)) return { category: "billing" };',
          '  if (/error|crash|broken|bug/.test(text)) return { category: "bug" };',
          '  return { category: "question" };',
          "}",
        ].join("\n"),
        inputs: [{ name: "message", value: "{{start.message}}" }],
        outputs: [{ name: "category", type: "string" }],
      },
    },
    {
      id: "reply",
      type: "template",
      title: "Reply",
      data: { template: "Thanks for writing. We filed your message under {{classify.category}} and will answer soon." },
    },
    {
      id: "end",
      type: "end",
      title: "End",
      data: {
        outputs: [
          { name: "category", value: "{{classify.category}}" },
          { name: "reply", value: "{{reply.text}}" },
        ],
      },
    },
  ]),
};

export const weatherTemplate: ExampleWorkflow = {
  slug: "template-weather-report",
  name: "Weather report",
  description: "A tool node asks get_current_weather for a city; a template turns the answer into a sentence.",
  document: chain([
    {
      id: "start",
      type: "start",
      title: "Start",
      data: { inputs: [{ name: "city", type: "string", required: true, default: "Athens" }] },
    },
    {
      id: "weather",
      type: "tool",
      title: "Current weather",
      data: { tool: "get_current_weather", arguments: { city: "{{start.city}}" } },
    },
    {
      id: "report",
      type: "template",
      title: "Report",
      data: {
        template:
          "In {{weather.result.city}} it is {{weather.result.temperature}} °C with {{weather.result.precipitation_mm}} mm of rain.",
      },
    },
    { id: "end", type: "end", title: "End", data: { outputs: [{ name: "report", value: "{{report.text}}" }] } },
  ]),
};

export const currencyTemplate: ExampleWorkflow = {
  slug: "template-currency",
  name: "Convert a price",
  description: "A tool node calls convert_currency (seed 003's schema) and the end node returns the amount.",
  document: chain([
    {
      id: "start",
      type: "start",
      title: "Start",
      data: {
        inputs: [
          { name: "amount", type: "number", required: true, default: 100 },
          { name: "from_currency", type: "string", required: true, default: "EUR" },
          { name: "to_currency", type: "string", required: true, default: "USD" },
        ],
      },
    },
    {
      id: "convert",
      type: "tool",
      title: "Convert",
      data: {
        tool: "convert_currency",
        argumentsTemplate:
          '{"amount": {{start.amount}}, "from_currency": "{{start.from_currency}}", "to_currency": "{{start.to_currency}}"}',
      },
    },
    {
      id: "end",
      type: "end",
      title: "End",
      data: { outputs: [{ name: "converted", value: ["convert", "result"] }] },
    },
  ]),
};

export const batchTemplate: ExampleWorkflow = {
  slug: "template-batch-titles",
  name: "Titles for a batch of notes",
  description: "An iteration runs an LLM node for each note in parallel and collects one title per note.",
  document: chain([
    {
      id: "start",
      type: "start",
      title: "Start",
      data: {
        inputs: [
          {
            name: "notes",
            type: "array",
            required: true,
            default: ["Meeting moved to Friday", "Server upgrade done", "New hire starts Monday"],
          },
        ],
      },
    },
    {
      id: "each",
      type: "iteration",
      title: "Each note",
      data: { input: ["start", "notes"], outputSelector: ["title", "text"], parallel: true, concurrency: 3 },
    },
    {
      id: "title",
      type: "llm",
      title: "Title",
      parentId: "each",
      data: { model, userPrompt: "Write a five-word title for this note: {{item}}" },
    },
    { id: "end", type: "end", title: "End", data: { outputs: [{ name: "titles", value: ["each", "output"] }] } },
  ]),
};

/** The gallery's templates beyond the seeded examples. */
export const extraTemplates: ExampleWorkflow[] = [
  summarizeTemplate,
  triageTemplate,
  weatherTemplate,
  currencyTemplate,
  batchTemplate,
];

import type { StartConfig } from "./nodes/start";
import { isTypedArray, typedArrayElement } from "./value-types";

type DeclaredInput = StartConfig["inputs"][number];

/** What the examples are filled in with: where the server is, the workflow, its start inputs. */
export interface ApiExampleTarget {
  /** `https://trellis.example.com` (no trailing slash). */
  origin: string;
  /** The workflow's slug. */
  slug: string;
  /** The start node's declared inputs. */
  inputs: readonly Pick<DeclaredInput, "name" | "type" | "required" | "default" | "description">[];
  /** The start input the chat endpoint feeds the last user message to (`chatBinding`; default `query`). */
  chatQueryInput?: string;
}

/** Ready-to-paste calls of one published workflow. */
export interface ApiExamples {
  /** Blocking run with curl. */
  curl: string;
  /** Streaming run with curl (SSE). */
  curlStream: string;
  /** The `openai` npm package against the chat endpoint. */
  openAiSdk: string;
  /** `fetch` with a streamed SSE answer, no dependency. */
  fetchSse: string;
  /** Python with `requests` (blocking) and the `openai` package (chat). */
  python: string;
  /** The MCP endpoint for MCP clients. */
  mcp: string;
}

/** An example value of the declared type: the default when there is one; a typed array holds one example item. */
function exampleValue(input: ApiExampleTarget["inputs"][number]): unknown {
  if (input.default !== undefined) return input.default;
  const type = input.type ?? "string";
  if (isTypedArray(type)) return [exampleValue({ ...input, type: typedArrayElement(type) })];
  switch (type) {
    case "number":
      return 1;
    case "boolean":
      return true;
    case "object":
      return {};
    case "array":
      return [];
    default:
      return `<${input.name}>`;
  }
}

/** The example `inputs` object: every required input, and the optional ones too (with their defaults). */
export function exampleInputs(inputs: ApiExampleTarget["inputs"]): Record<string, unknown> {
  return Object.fromEntries(inputs.map((input) => [input.name, exampleValue(input)]));
}

/** JSON as Python literals (True/False/None). */
function pythonLiteral(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    return value.length ? `[${value.map((item) => pythonLiteral(item, inner)).join(", ")}]` : "[]";
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`).join(",\n")},\n${indent}}`;
}

/** A single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * curl, JavaScript (openai SDK; fetch + SSE), Python and MCP examples for one published workflow,
 * with its real slug and start inputs. The API key is a placeholder: secrets are never shown twice.
 */
export function buildApiExamples(target: ApiExampleTarget): ApiExamples {
  const runUrl = `${target.origin}/api/v1/workflows/${encodeURIComponent(target.slug)}/run`;
  const inputs = exampleInputs(target.inputs);
  const blockingBody = JSON.stringify({ inputs, response_mode: "blocking" });
  const streamingBody = JSON.stringify({ inputs, response_mode: "streaming" });
  const inputsJs = JSON.stringify(inputs, null, 2).replace(/\n/g, "\n    ");
  const queryInput = target.chatQueryInput ?? "query";
  const chatPrompt = typeof inputs[queryInput] === "string" ? (inputs[queryInput] as string) : "Hello";
  const curl = `curl -X POST ${runUrl} \\
  -H "Authorization: Bearer $TRELLIS_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d ${shellQuote(blockingBody)}`;
  const curlStream = `curl -N -X POST ${runUrl} \\
  -H "Authorization: Bearer $TRELLIS_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(streamingBody)}`;
  const openAiSdk = `import OpenAI from "openai";

const client = new OpenAI({ apiKey: process.env.TRELLIS_API_KEY, baseURL: "${target.origin}/api/v1" });

// The workflow is the model; the last user message goes to its "${queryInput}" input.
const stream = await client.chat.completions.create({
  model: ${JSON.stringify(target.slug)},
  messages: [{ role: "user", content: ${JSON.stringify(chatPrompt)} }],
  stream: true,
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`;
  const fetchSse = `const response = await fetch("${runUrl}", {
  method: "POST",
  headers: {
    Authorization: \`Bearer \${process.env.TRELLIS_API_KEY}\`,
    "Content-Type": "application/json",
  },
  body: JSON.stringify({
    inputs: ${inputsJs},
    response_mode: "streaming",
  }),
});
// Server-Sent Events: "event: <type>" and "data: <JSON>" per run event, ending with run-end.
const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
let buffer = "";
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  buffer += value;
  let end;
  while ((end = buffer.indexOf("\\n\\n")) >= 0) {
    const data = buffer.slice(0, end).split("\\n").find((line) => line.startsWith("data: "));
    buffer = buffer.slice(end + 2);
    if (!data) continue;
    const event = JSON.parse(data.slice(6));
    if (event.type === "node-delta") process.stdout.write(event.delta);
    if (event.type === "run-end") console.log("\\n", event.status, event.outputs);
  }
}`;
  const python = `import os
import uuid

import requests

response = requests.post(
    "${runUrl}",
    headers={
        "Authorization": f"Bearer {os.environ['TRELLIS_API_KEY']}",
        "Idempotency-Key": str(uuid.uuid4()),
    },
    json={"inputs": ${pythonLiteral(inputs, "    ")}, "response_mode": "blocking"},
    timeout=330,
)
response.raise_for_status()
run = response.json()
print(run["status"], run["outputs"])

# Or as an OpenAI chat model:
from openai import OpenAI

client = OpenAI(api_key=os.environ["TRELLIS_API_KEY"], base_url="${target.origin}/api/v1")
completion = client.chat.completions.create(
    model=${JSON.stringify(target.slug)},
    messages=[{"role": "user", "content": ${JSON.stringify(chatPrompt)}}],
)
print(completion.choices[0].message.content)`;
  const mcp = JSON.stringify(
    {
      mcpServers: {
        trellis: {
          type: "streamable-http",
          url: `${target.origin}/api/v1/mcp`,
          headers: { Authorization: "Bearer <TRELLIS_API_KEY>" },
        },
      },
    },
    null,
    2,
  );
  return { curl, curlStream, openAiSdk, fetchSse, python, mcp };
}

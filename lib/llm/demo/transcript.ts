import "server-only";
import type { ChatMessage, ModelRequest, ModelToolSpec } from "../language-model";

/** Which protocol a request speaks, as far as the demo model can tell. */
export type DemoProtocol = "tools" | "functions" | "react" | "prompt_call" | "planner" | "plain";

/** A tool call the conversation already contains, with its result text. */
export interface SeenCall {
  /** Tool name. */
  name: string;
  /** Arguments. */
  args: Record<string, unknown>;
  /** Result text as the model saw it. */
  result: string;
}

/** A request read back into what the demo model needs. */
export interface DemoTranscript {
  /** Protocol. */
  protocol: DemoProtocol;
  /** The user's task (first user message, or the planner goal). */
  task: string;
  /** Tools offered (native, or read from the prompt). */
  tools: ModelToolSpec[];
  /** Calls made so far with their results. */
  seen: SeenCall[];
  /** The agent asked for an answer without tools (a limit was hit). */
  mustAnswer: boolean;
  /** Planner only: the replan context, when replanning. */
  replan?: {
    failed?: { id?: string; tool?: string; input?: unknown };
    remaining?: { id?: string; tool?: string; input?: unknown; dependsOn?: string[] }[];
  };
  /** Every message's text, for plain prompts. */
  allText: string;
}

const TOOL_LINE = /^- ([\w.-]+): (.*?) Arguments JSON Schema: (\{.*\})$/gm;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toolsFromLines(text: string): ModelToolSpec[] {
  return [...text.matchAll(TOOL_LINE)].map((match) => ({
    name: match[1],
    description: match[2],
    parameters: (parseJson(match[3]) as Record<string, unknown>) ?? {},
  }));
}

function toolsFromPromptCall(text: string): ModelToolSpec[] {
  const blocks = [...text.matchAll(/"""(\[[\s\S]*?\])"""/g)];
  const parsed = blocks.length > 0 ? parseJson(blocks[blocks.length - 1][1]) : undefined;
  if (!Array.isArray(parsed)) return [];
  return parsed.map((tool: { toolId?: string; description?: string; parameters?: Record<string, unknown> }) => ({
    name: String(tool.toolId ?? ""),
    description: String(tool.description ?? ""),
    parameters: tool.parameters ?? {},
  }));
}

function asArgs(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function seenNative(messages: ChatMessage[]): SeenCall[] {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const seen: SeenCall[] = [];
  let lastFunction: { name: string; args: Record<string, unknown> } | undefined;
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of message.toolCalls ?? [])
        calls.set(call.id, { name: call.name, args: asArgs(parseJson(call.arguments)) });
      if (message.functionCall)
        lastFunction = { name: message.functionCall.name, args: asArgs(parseJson(message.functionCall.arguments)) };
    } else if (message.role === "tool") {
      const call = calls.get(message.toolCallId);
      if (call) seen.push({ ...call, result: message.content });
    } else if (message.role === "function" && lastFunction) {
      seen.push({ ...lastFunction, result: message.content });
    }
  }
  return seen;
}

function seenInText(messages: ChatMessage[], protocol: "react" | "prompt_call"): SeenCall[] {
  const seen: SeenCall[] = [];
  let pending: { name: string; args: Record<string, unknown> } | undefined;
  for (const message of messages) {
    if (message.role === "assistant") {
      pending = undefined;
      if (protocol === "react") {
        const action = /(?:Action|行动)\s*[:：]\s*([\w.-]+)/.exec(message.content);
        const input = /(?:Action Input|行动输入)\s*[:：]\s*(\{[\s\S]*\})/.exec(message.content);
        if (action) pending = { name: action[1], args: asArgs(parseJson(input?.[1] ?? "{}")) };
      } else {
        const call = /^\s*1\s*[:：]\s*(\{[\s\S]*\})/.exec(message.content);
        const body = asArgs(parseJson(call?.[1] ?? ""));
        if (typeof body.toolId === "string") pending = { name: body.toolId, args: asArgs(body.arguments) };
      }
    } else if (message.role === "user" && pending) {
      const result =
        protocol === "react"
          ? /^Observation:\s*([\s\S]*)$/.exec(message.content)?.[1]
          : /^TOOL_RESPONSE:\s*"""([\s\S]*)"""/.exec(message.content)?.[1];
      if (result !== undefined) {
        seen.push({ ...pending, result });
        pending = undefined;
      }
    }
  }
  return seen;
}

/** Reads a request into protocol, task, tools, calls made so far and whether it must answer now. */
export function readTranscript(request: ModelRequest): DemoTranscript {
  const messages = request.messages;
  const system = messages
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");
  const users = messages.filter((message) => message.role === "user").map((message) => message.content);
  const lastUser = users[users.length - 1] ?? "";
  const allText = messages.map((message) => message.content).join("\n");
  const mustAnswer =
    /Tools are no longer available/.test(lastUser) || (messages.length > 0 && request.toolChoice === "none");
  if (/planner of a plan-and-execute agent/i.test(system)) {
    const goalMessage = users.find((text) => text.startsWith("Goal:")) ?? users[0] ?? "";
    const goal = /^Goal:\s*(.*)$/m.exec(goalMessage)?.[1] ?? goalMessage;
    const replanJson = /Replan:[^\n]*\n(\{.*\})/.exec(goalMessage)?.[1];
    return {
      protocol: "planner",
      task: goal,
      tools: toolsFromLines(system),
      seen: [],
      mustAnswer: false,
      replan: replanJson ? (parseJson(replanJson) as DemoTranscript["replan"]) : undefined,
      allText,
    };
  }
  const task = users[0] ?? "";
  if (request.tools && request.tools.length > 0) {
    const protocol = request.toolProtocol === "functions" ? "functions" : "tools";
    return { protocol, task, tools: request.tools, seen: seenNative(messages), mustAnswer, allText };
  }
  if (/Action Input:/.test(system)) {
    return {
      protocol: "react",
      task,
      tools: toolsFromLines(system),
      seen: seenInText(messages, "react"),
      mustAnswer,
      allText,
    };
  }
  if (/"toolId"/.test(system)) {
    return {
      protocol: "prompt_call",
      task,
      tools: toolsFromPromptCall(system),
      seen: seenInText(messages, "prompt_call"),
      mustAnswer,
      allText,
    };
  }
  // Native protocol with tools withheld (the agent's answer-only turn) still has tool results to use.
  const seen = seenNative(messages);
  return {
    protocol: seen.length > 0 ? "tools" : "plain",
    task,
    tools: [],
    seen,
    mustAnswer: mustAnswer || seen.length > 0,
    allText,
  };
}

import { startConfigSchema } from "./nodes/start";

/**
 * How chat messages feed a workflow: one definition for the OpenAI-compatible endpoint
 * (`POST /api/v1/chat/completions`), the API tab's examples and the editor's chat preview
 * (isomorphic), so a preview conversation is what an API chat client gets.
 */
export interface ChatBinding {
  /** The text input that receives each message. */
  queryInput: string;
  /** The array input that receives the earlier turns as `[{ role, content }]`, when the start declares one. */
  historyInput: string | null;
  /** The run output shown as the answer; null: the first string output. */
  answerOutput: string | null;
}

/** Names a message input usually has, tried in order when `chat.queryInput` is not declared. */
const QUERY_NAMES = ["query", "message", "question", "input", "prompt"];
/** Names a history input usually has, when `chat.historyInput` is not set. */
const HISTORY_NAMES = ["history", "messages"];

const isText = (type: string | undefined) => type === undefined || type === "string";

/**
 * The binding of a start node's data, or null when it has no text input to send a message to.
 * The query is `chat.queryInput` when declared as a text input, else the first text input with a
 * usual name (query, message, question…), else the only text input; a start that accepts extra
 * inputs and declares none of these takes it undeclared, as `chat.queryInput`. History is
 * `chat.historyInput` when declared, else an array input named `history` or `messages`; without
 * one each message is a fresh run.
 */
export function chatBinding(startData: unknown): ChatBinding | null {
  const parsed = startConfigSchema.safeParse(startData ?? {});
  if (!parsed.success) return null;
  const { inputs, chat, allowExtraInputs } = parsed.data;
  const texts = inputs.filter((input) => isText(input.type));
  const query =
    texts.find((input) => input.name === chat.queryInput) ??
    QUERY_NAMES.map((name) => texts.find((input) => input.name === name)).find(Boolean) ??
    (texts.length === 1 ? texts[0] : undefined) ??
    (allowExtraInputs && !inputs.some((input) => input.name === chat.queryInput)
      ? { name: chat.queryInput }
      : undefined);
  if (!query) return null;
  // Messages are objects: an untyped array or an array of objects can hold them.
  const arrays = inputs.filter(
    (input) => (input.type === "array" || input.type === "array<object>") && input.name !== query.name,
  );
  const history =
    arrays.find((input) => input.name === chat.historyInput) ??
    HISTORY_NAMES.map((name) => arrays.find((input) => input.name === name)).find(Boolean) ??
    (allowExtraInputs && chat.historyInput && !inputs.some((input) => input.name === chat.historyInput)
      ? { name: chat.historyInput }
      : undefined);
  return { queryInput: query.name, historyInput: history?.name ?? null, answerOutput: chat.answerOutput ?? null };
}

/** One turn of a conversation. */
export interface ChatTurn {
  /** Who said it. */
  role: "user" | "assistant";
  /** The text. */
  content: string;
}

/** The run inputs for `message`, after the earlier `turns` (passed only when the binding has a history input). */
export function chatInputs(binding: ChatBinding, message: string, turns: readonly ChatTurn[]): Record<string, unknown> {
  return {
    [binding.queryInput]: message,
    ...(binding.historyInput
      ? { [binding.historyInput]: turns.map((turn) => ({ role: turn.role, content: turn.content })) }
      : {}),
  };
}

/** The answer in a finished run's outputs: `answerOutput`, else the first string output; null when none. */
export function chatBindingAnswer(binding: ChatBinding, outputs: Record<string, unknown>): string | null {
  if (binding.answerOutput) {
    const value = outputs[binding.answerOutput];
    if (value === undefined) return null;
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  const first = Object.values(outputs).find((value) => typeof value === "string");
  return typeof first === "string" ? first : null;
}

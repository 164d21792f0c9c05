import { startConfigSchema } from "./nodes/start";

/**
 * How the editor's chat preview feeds a workflow (isomorphic: the panel and its tests). It follows
 * the start node's `chat` settings, the ones the OpenAI-compatible endpoint uses, so a preview
 * conversation is what an API chat client would get.
 */
export interface ChatPreviewBinding {
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
 * usual name (query, message, question…), else the only text input. History is `chat.historyInput`
 * when declared, else an array input named `history` or `messages`; without one each message is
 * a fresh run.
 */
export function chatPreviewBinding(startData: unknown): ChatPreviewBinding | null {
  const parsed = startConfigSchema.safeParse(startData ?? {});
  if (!parsed.success) return null;
  const { inputs, chat } = parsed.data;
  const texts = inputs.filter((input) => isText(input.type));
  const query =
    texts.find((input) => input.name === chat.queryInput) ??
    QUERY_NAMES.map((name) => texts.find((input) => input.name === name)).find(Boolean) ??
    (texts.length === 1 ? texts[0] : undefined);
  if (!query) return null;
  const arrays = inputs.filter((input) => input.type === "array" && input.name !== query.name);
  const history =
    arrays.find((input) => input.name === chat.historyInput) ??
    HISTORY_NAMES.map((name) => arrays.find((input) => input.name === name)).find(Boolean);
  return { queryInput: query.name, historyInput: history?.name ?? null, answerOutput: chat.answerOutput ?? null };
}

/** One turn of a preview conversation. */
export interface ChatPreviewTurn {
  /** Who said it. */
  role: "user" | "assistant";
  /** The text. */
  content: string;
}

/** The run inputs for `message`, after the earlier `turns` (passed only when the binding has a history input). */
export function chatPreviewInputs(
  binding: ChatPreviewBinding,
  message: string,
  turns: readonly ChatPreviewTurn[],
): Record<string, unknown> {
  return {
    [binding.queryInput]: message,
    ...(binding.historyInput
      ? { [binding.historyInput]: turns.map((turn) => ({ role: turn.role, content: turn.content })) }
      : {}),
  };
}

/** The answer in a finished run's outputs: `answerOutput`, else the first string output; null when none. */
export function chatPreviewAnswer(binding: ChatPreviewBinding, outputs: Record<string, unknown>): string | null {
  if (binding.answerOutput) {
    const value = outputs[binding.answerOutput];
    if (value === undefined) return null;
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  const first = Object.values(outputs).find((value) => typeof value === "string");
  return typeof first === "string" ? first : null;
}

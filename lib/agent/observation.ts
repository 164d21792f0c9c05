import "server-only";
import type { StepError } from "./types";

/** Observations longer than this are cut, so one large tool result cannot crowd out the history. */
export const MAX_OBSERVATION_CHARS = 8_000;

function truncate(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  return `${text.slice(0, MAX_OBSERVATION_CHARS)}… [truncated ${text.length - MAX_OBSERVATION_CHARS} characters]`;
}

/**
 * Serializes tool output for the model. Output is data: it is quoted as text and never read back
 * for instructions, whatever it says.
 */
export function formatToolContent(content: unknown): string {
  if (typeof content === "string") return truncate(content);
  try {
    return truncate(JSON.stringify(content) ?? "null");
  } catch {
    return truncate(String(content));
  }
}

/** The text the model sees for a refused or failed call: code, message, hint, and whether to retry. */
export function formatErrorObservation(error: StepError, hint?: string): string {
  const parts = [`Error [${error.code}]: ${error.message}`];
  if (hint) parts.push(`Hint: ${hint}`);
  parts.push(error.retryable ? "This error is transient; you may try again." : "Do not repeat this exact call.");
  return parts.join("\n");
}

import type { CheckSpec } from "../model/check-spec";

/** One check's verdict on one trial. */
export interface CheckResult {
  /** The check's stable name. */
  name: string;
  /** Its kind. */
  kind: CheckSpec["kind"];
  /** Whether it passed. */
  passed: boolean;
  /** Why, for people: what was expected and what was found. */
  reason: string;
  /** USD this check itself spent (the judge's model call). */
  cost?: number;
}

/** Shortens a value for a reason message. */
export function preview(value: unknown, limit = 160): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return "undefined";
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

import "server-only";
import { formatWithOptions } from "node:util";
import { createRedactor, type Redactor } from "../engine/redactor";

/**
 * The server log's redaction step. Runs mask secrets on their event path (lib/engine/redactor);
 * what reaches the console by other ways (an unexpected error logged by the route wrapper, a
 * scheduler failure, Next's own error logs) goes through this: every console line of the process
 * is masked with every secret the process has seen — the environment's keys at start-up and each
 * workspace's stored secrets whenever they are loaded for a run.
 */

const known = new Set<string>();
let redactor: Redactor | undefined;
const INSTALLED = Symbol.for("trellis.log-redaction");

/** Adds secret values to mask in log lines (short and blank values are ignored, as in runs). */
export function registerLogSecrets(values: Iterable<string | undefined>): void {
  let added = false;
  for (const value of values) {
    if (typeof value !== "string") continue;
    const trimmed = value.trim();
    if (trimmed === "" || known.has(trimmed)) continue;
    known.add(trimmed);
    added = true;
  }
  if (added) redactor = createRedactor(known);
}

/** A log line with every registered secret masked. */
export function redactLogLine(text: string): string {
  return redactor ? redactor.redactText(text) : text;
}

type ConsoleLike = Pick<Console, "log" | "info" | "warn" | "error" | "debug">;

/**
 * Routes the console's methods through {@link redactLogLine}: arguments are formatted as the
 * console would (errors with their stacks), then masked. Idempotent per console object.
 */
export function installLogRedaction(target: ConsoleLike = console): void {
  const marked = target as ConsoleLike & { [INSTALLED]?: boolean };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => {
      if (!redactor) return original(...args);
      original(redactLogLine(formatWithOptions({ colors: false }, ...args)));
    };
  }
}

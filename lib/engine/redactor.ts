import "server-only";
/**
 * Masks the workspace's stored secret values (provider keys, HTTP credential values, MCP and
 * OpenAPI secrets) wherever they appear in what a run records or streams: error messages, tool
 * results, model text echoed back by an upstream. The engine builds one per run from
 * `EngineServices.secrets` and applies it where events are emitted, before the recorder and any
 * listener (SSE) see them; node outputs are taken from the redacted events, so downstream nodes,
 * checkpoints and the run result never hold the plain value either.
 */
export interface Redactor {
  /** `text` with every secret replaced by {@link REDACTED}. */
  redactText(text: string): string;
  /** A copy of `value` with every string redacted; the same object when nothing matched. */
  redact<T>(value: T): T;
  /**
   * For text that arrives in pieces (streamed model tokens): `ready` is the redacted text that can
   * go out now; `held` is a tail that could be the start of a secret completed by the next piece,
   * to be prepended to it (or sent through `redactText` when the stream ends). Without this a key
   * echoed as "sk-ab" + "cd…" passes every per-piece check.
   */
  splitStream(text: string): { ready: string; held: string };
}

/** What a masked secret becomes. */
export const REDACTED = "[redacted]";

/**
 * Shorter values are not masked: they would match ordinary words and numbers (a 4-character
 * header value is not a secret worth destroying every "true" in a record for).
 */
export const MIN_SECRET_LENGTH = 8;

/** A redactor for these secret values, or undefined when there is nothing to mask. */
export function createRedactor(secrets: Iterable<string> | undefined): Redactor | undefined {
  if (!secrets) return undefined;
  const unique = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string") continue;
    const trimmed = secret.trim();
    if (trimmed.length >= MIN_SECRET_LENGTH) unique.add(trimmed);
  }
  if (unique.size === 0) return undefined;
  // Longest first, so a secret that contains another is masked whole.
  const pattern = new RegExp(
    [...unique]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  const redactText = (text: string) => {
    pattern.lastIndex = 0;
    return pattern.test(text) ? text.replace(pattern, REDACTED) : text;
  };
  const redactValue = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return redactText(value);
    if (value === null || typeof value !== "object" || depth > 64) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = value[index];
        const redacted = redactValue(item, depth + 1);
        if (redacted !== item) {
          copy ??= value.slice();
          copy[index] = redacted;
        }
      }
      return copy ?? value;
    }
    if (value instanceof Error) return redactValue({ name: value.name, message: value.message }, depth + 1);
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const redacted = redactValue(item, depth + 1);
      if (redacted !== item) {
        copy ??= { ...(value as Record<string, unknown>) };
        copy[key] = redacted;
      }
    }
    return copy ?? value;
  };
  // Every proper prefix of every secret: a stream tail in this set may still become a secret.
  const prefixes = new Set<string>();
  let longest = 0;
  for (const secret of unique) {
    longest = Math.max(longest, secret.length);
    for (let length = 1; length < secret.length; length++) prefixes.add(secret.slice(0, length));
  }
  const splitStream = (text: string) => {
    let cut = text.length;
    for (let length = Math.min(text.length, longest - 1); length > 0; length--) {
      if (prefixes.has(text.slice(text.length - length))) {
        cut = text.length - length;
        break;
      }
    }
    // A whole secret that the cut would split goes out whole (masked), never in two halves.
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const end = match.index + match[0].length;
      if (match.index < cut && end > cut) cut = end;
    }
    return { ready: redactText(text.slice(0, cut)), held: text.slice(cut) };
  };
  return { redactText, redact: <T>(value: T) => redactValue(value, 0) as T, splitStream };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

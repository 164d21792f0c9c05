import "server-only";

/**
 * The `{ error: { message, type, param, code } }` the `openai` SDK reads an error response as,
 * made from the other shapes OpenAI-compatible servers answer with. The SDK keeps only the body's
 * `error` member; from any other shape it keeps nothing, and the error says "400 status code (no
 * body)". Servers seen answering so:
 * - vLLM before 0.10 and other servers that copied its error model: the fields at the top level,
 *   `{ object: "error", message, type, param, code }`;
 * - FastAPI-based servers: `{ detail: "…" }`, or its validation list
 *   `{ detail: [{ loc: ["body", "stop"], msg: "Extra inputs are not permitted", type }] }`;
 * - some gateways: `{ message: "…" }` alone;
 * - Ollama: `{ error: "model 'x' not found" }`, a string, which the SDK would quote as JSON.
 *
 * A body whose `error` is an object, or of none of these shapes, is returned as it is.
 */
export function normaliseErrorBody(body: unknown): unknown {
  if (!isRecord(body)) return body;
  if (typeof body.error === "string") return { error: { message: body.error, type: null, param: null, code: null } };
  if (body.error !== undefined) return body;
  if (typeof body.message === "string") {
    return {
      error: {
        message: body.message,
        type: typeof body.type === "string" ? body.type : null,
        param: typeof body.param === "string" ? body.param : null,
        code: typeof body.code === "string" || typeof body.code === "number" ? body.code : null,
      },
    };
  }
  if (typeof body.detail === "string") return { error: { message: body.detail, type: null, param: null, code: null } };
  if (Array.isArray(body.detail)) {
    const items = body.detail.filter(isRecord);
    const message = items.map(describeValidationItem).join("; ");
    if (message === "") return body;
    // One field at fault (`loc: ["body", "<field>"]`) is what OpenAI's `param` says.
    const fields = [...new Set(items.map(bodyField).filter((field): field is string => field !== undefined))];
    return {
      error: { message, type: "invalid_request_error", param: fields.length === 1 ? fields[0] : null, code: null },
    };
  }
  return body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `body.stop: Extra inputs are not permitted` from a FastAPI validation item. */
function describeValidationItem(item: Record<string, unknown>): string {
  const location = Array.isArray(item.loc) ? item.loc.map(String).join(".") : "";
  const message = typeof item.msg === "string" ? item.msg : JSON.stringify(item);
  return location ? `${location}: ${message}` : message;
}

/** The top-level request field a validation item is about, when it is one. */
function bodyField(item: Record<string, unknown>): string | undefined {
  const location = item.loc;
  if (!Array.isArray(location) || location[0] !== "body" || typeof location[1] !== "string") return undefined;
  return location[1];
}

import "server-only";

/** A whole-string reference to an earlier step's result: `{{s1}}` or `{{s1.tickets.id}}`. */
const WHOLE_REFERENCE = /^\{\{\s*([\w-]+)((?:\.[\w-]+|\[\d+\])*)\s*\}\}$/;
/** References embedded in longer text, replaced by their JSON or string form. */
const EMBEDDED_REFERENCE = /\{\{\s*([\w-]+)((?:\.[\w-]+|\[\d+\])*)\s*\}\}/g;

function pathSegments(path: string): string[] {
  return [...path.matchAll(/\.([\w-]+)|\[(\d+)\]/g)].map((match) => match[1] ?? match[2]);
}

/**
 * Walks a path through a value. A name segment applied to an array maps over its elements, so
 * `{{s1.tickets.id}}` gives the ids of every ticket step s1 found.
 */
function walk(value: unknown, segments: string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (Array.isArray(current) && !/^\d+$/.test(segment)) {
      current = current.map((element) =>
        element && typeof element === "object" ? (element as Record<string, unknown>)[segment] : undefined,
      );
    } else if (current && typeof current === "object") {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/**
 * Replaces step references in a plan step's input with results of finished steps. Unknown step
 * ids are left as written (the tool then sees the literal text, which shows up in its error).
 */
export function resolveStepInput(input: unknown, results: ReadonlyMap<string, unknown>): unknown {
  if (typeof input === "string") {
    const whole = WHOLE_REFERENCE.exec(input);
    if (whole && results.has(whole[1])) return walk(results.get(whole[1]), pathSegments(whole[2]));
    return input.replace(EMBEDDED_REFERENCE, (text, id: string, path: string) => {
      if (!results.has(id)) return text;
      const value = walk(results.get(id), pathSegments(path));
      return typeof value === "string" ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(input)) return input.map((element) => resolveStepInput(element, results));
  if (input && typeof input === "object") {
    const resolved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) resolved[key] = resolveStepInput(value, results);
    return resolved;
  }
  return input;
}

// A small JSON path reader for checks: `$.a.b[0]`, `a.b[0].c`, `$['key with space']`.

/** The path could not be read. */
export class JsonPathSyntaxError extends Error {
  readonly code = "invalid_json_path";
}

/** Splits a path into keys and indexes. */
export function parseJsonPath(path: string): (string | number)[] {
  let rest = path.trim();
  if (rest.startsWith("$")) rest = rest.slice(1);
  const parts: (string | number)[] = [];
  const token = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(?:'([^']*)'|"([^"]*)")\])/;
  while (rest.length) {
    const match = token.exec(rest);
    if (!match) throw new JsonPathSyntaxError(`Cannot read the JSON path "${path}" at "${rest}"`);
    if (match[1] !== undefined) parts.push(match[1]);
    else if (match[2] !== undefined) parts.push(Number(match[2]));
    else parts.push(match[3] ?? match[4] ?? "");
    rest = rest.slice(match[0].length);
  }
  return parts;
}

/** The value at `path`, `{ found: false }` when a step is missing. */
export function readJsonPath(value: unknown, path: string): { found: true; value: unknown } | { found: false } {
  let current: unknown = value;
  for (const part of parseJsonPath(path)) {
    if (typeof part === "number") {
      if (!Array.isArray(current) || part >= current.length) return { found: false };
      current = current[part];
    } else {
      if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return { found: false };
      current = (current as Record<string, unknown>)[part];
    }
  }
  return { found: true, value: current };
}

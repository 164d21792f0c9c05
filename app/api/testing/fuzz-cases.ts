import type { Call } from "./two-workspaces";

/**
 * Malformed requests for the fuzz suite, from a seeded generator (mulberry32), so a failing case
 * is the same on every run and its name says how to replay it.
 */

/** A seeded pseudo-random generator: numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <Value>(random: () => number, values: readonly Value[]): Value =>
  values[Math.floor(random() * values.length)] as Value;

/** Values of each JSON type, to put where a field expects another. */
const WRONG_VALUES: Record<string, readonly unknown[]> = {
  string: ["", " ", "0", "null", "ünï©ødé 🚀", "<script>alert(1)</script>", "../../etc/passwd", "x".repeat(300)],
  number: [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 31],
  boolean: [true, false],
  object: [{}, { nested: { deeper: [1, "two", null] } }, { "": "" }],
  array: [[], [null], ["a", 1, {}], [[[]]]],
  null: [null],
};

/** One malformed request: a name to find it by, and the call. */
export interface FuzzCase {
  name: string;
  call: Call;
}

/** `[[[…]]]` nested `depth` levels. */
export function deepArray(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

const PLACEHOLDER = "__FUZZ_PLACEHOLDER__";

/** The JSON text of `body` with `field` set to raw JSON (or raw bytes). */
function withRawField(body: Record<string, unknown>, field: string, raw: string | Uint8Array): Uint8Array | string {
  const text = JSON.stringify({ ...body, [field]: PLACEHOLDER });
  const quoted = `"${PLACEHOLDER}"`;
  if (typeof raw === "string") return text.replace(quoted, raw);
  const [before, after] = text.split(quoted) as [string, string];
  const encoder = new TextEncoder();
  return Buffer.concat([encoder.encode(before), raw, encoder.encode(after)]);
}

/**
 * `value` with a `fuzzDeep` member nested `depth` levels added at the innermost object along its
 * first object-valued members (e.g. a draft's first node's data), so the deep part sits where a
 * schema of open records would let it through.
 */
export function deepenInside(value: unknown, depth: number): unknown {
  const deep = JSON.parse(deepArray(Math.min(depth, 5000))) as unknown;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.length > 0 ? [walk(node[0]), ...node.slice(1)] : [deep];
    if (node && typeof node === "object") {
      const entries = Object.entries(node as Record<string, unknown>);
      const index = entries.findIndex(([, member]) => member !== null && typeof member === "object");
      if (index === -1) return { ...(node as object), fuzzDeep: deep };
      return Object.fromEntries(entries.map(([key, member], at) => [key, at === index ? walk(member) : member]));
    }
    return node;
  };
  return walk(value);
}

/** The top-level field names of a zod body schema (objects, unions of objects, pipes, defaults). */
export function topLevelFields(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case "object":
      return Object.keys(def.shape as Record<string, unknown>);
    case "union":
      return [...new Set((def.options as unknown[]).flatMap(topLevelFields))];
    case "pipe":
      return topLevelFields(def.in);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
      return topLevelFields(def.innerType);
    default:
      return [];
  }
}

/** Malformed bodies for a JSON route whose minimal valid body is `valid` (an object, or undefined). */
export function bodyCases(base: Call, valid: unknown, random: () => number, schemaFields: string[] = []): FuzzCase[] {
  const body = (valid && typeof valid === "object" && !Array.isArray(valid) ? valid : {}) as Record<string, unknown>;
  const known = [...new Set([...Object.keys(body), ...schemaFields])];
  const fields = known.length > 0 ? known : ["field"];
  const json = (contentType: string | null, bytes: Uint8Array | string) => ({
    ...base,
    body: undefined,
    raw: { contentType, bytes },
  });
  const cases: FuzzCase[] = [];
  for (const field of fields) {
    for (const [type, values] of Object.entries(WRONG_VALUES)) {
      const value = pick(random, values);
      cases.push({
        name: `${field} as ${type} ${JSON.stringify(value).slice(0, 30)}`,
        call: { ...base, body: { ...body, [field]: value } },
      });
    }
    cases.push({
      name: `${field} a lone surrogate "\\ud800"`,
      call: json("application/json", withRawField(body, field, '"\\ud800"')),
    });
    cases.push({
      name: `${field} invalid UTF-8 bytes`,
      call: json("application/json", withRawField(body, field, Uint8Array.of(0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22))),
    });
    cases.push({
      name: `${field} a 1 MB string`,
      call: { ...base, body: { ...body, [field]: "a".repeat(1024 * 1024) } },
    });
    cases.push({
      name: `${field} a 3,000-deep array`,
      call: json("application/json", withRawField(body, field, deepArray(3000))),
    });
  }
  cases.push(
    { name: "no body", call: json("application/json", "") },
    { name: "no body and no content type", call: json(null, "") },
    { name: "body []", call: { ...base, body: [] } },
    { name: "body null", call: json("application/json", "null") },
    { name: "body a string", call: { ...base, body: "text" } },
    { name: "body a number", call: { ...base, body: 42 } },
    { name: "body not JSON", call: json("application/json", "{not json") },
    { name: "body a 3,000-deep array", call: json("application/json", deepArray(3000)) },
    { name: "body a 100,000-deep array", call: json("application/json", deepArray(100_000)) },
    {
      name: "body a 100,000-deep object",
      call: json("application/json", `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`),
    },
    { name: "body invalid UTF-8 only", call: json("application/json", Uint8Array.of(0xff, 0xfe, 0xfd)) },
    { name: "body valid JSON as text/plain", call: json("text/plain", JSON.stringify(body)) },
    {
      name: "body valid JSON as text/plain;charset=utf-8",
      call: json("text/plain;charset=utf-8", JSON.stringify(body)),
    },
    { name: "body as application/x-www-form-urlencoded", call: json("application/x-www-form-urlencoded", "a=1&b=2") },
    { name: "body valid JSON without content type", call: json(null, JSON.stringify(body)) },
  );
  return cases;
}

/** Bad values for each path parameter of a dynamic route. */
export const BAD_PATH_VALUES: [string, string][] = [
  ["%ff%fe", "%ff%fe"],
  ["a lone %", "%"],
  ["a 5 KB id", "a".repeat(5 * 1024)],
  ["..%2f", "..%2f"],
  ["../..", "../.."],
  ["a NUL byte", "id\u0000"],
];

/** Query parameters the routes read (list filters, cursors, formats, compare sides), to fill with bad values. */
const QUERY_NAMES = ["limit", "before", "after", "cursor", "status", "trigger", "workflowId", "datasetId", "format"];

/** Bad query strings for a GET route (its own query keys first, then the common ones). */
export function queryCases(base: Call, query: string | undefined): FuzzCase[] {
  const own = [...new URLSearchParams(query ?? "").keys()];
  const names = [...new Set([...own, ...QUERY_NAMES])];
  const path = base.url.split("?")[0];
  const withValue = (value: string) => names.map((name) => `${name}=${value}`).join("&");
  return [
    { name: "query values %ff%fe", call: { ...base, url: `${path}?${withValue("%ff%fe")}` } },
    { name: "query values -1", call: { ...base, url: `${path}?${withValue("-1")}` } },
    { name: "query values 5 KB", call: { ...base, url: `${path}?${withValue("9".repeat(5 * 1024))}` } },
    {
      name: "query values repeated",
      call: { ...base, url: `${path}?${names.map((name) => `${name}=a&${name}=b`).join("&")}` },
    },
    { name: "query a lone %", call: { ...base, url: `${path}?${withValue("%")}` } },
  ];
}

/**
 * `{{...}}` templates and selectors. Parsing is cached because the engine renders the same few
 * templates thousands of times per run (once per iteration item); rendering is then a walk over
 * pre-split segments with no regex work.
 */

import { TwoGenerationCache } from "./template-cache";

/** Roots with a built-in meaning; node ids may not use them. */
export const RESERVED_ROOTS = ["item", "index", "env"] as const;

/** What a reference points at. */
export type VariableReferenceKind = "node" | "item" | "index" | "env";

/** One parsed `{{root.path}}` reference or selector. */
export interface VariableReference {
  /** `node` for `{{nodeId...}}`, otherwise the reserved root. */
  kind: VariableReferenceKind;
  /** The first segment: a node id, `item`, `index` or `env`. */
  root: string;
  /** The segments after the root; `["name"]` for `{{env.name}}`. */
  path: string[];
  /** The reference as written, braces included (a selector is formatted as a template). */
  text: string;
}

/** A template split into literal text and references. */
export interface ParsedTemplate {
  /** Literal strings and references, in order. */
  segments: readonly (string | VariableReference)[];
  /** The references alone, in order. */
  references: readonly VariableReference[];
  /** Set when the whole template (ignoring surrounding whitespace) is one reference. */
  single?: VariableReference;
}

/** Options for rendering and resolving. */
export interface RenderOptions {
  /** Called for each reference that resolves to `undefined`; it renders as the empty string. */
  onMissing?: (reference: VariableReference) => void;
}

/** Values visible to a template: node outputs by node id, plus `item`, `index` and `env`. */
export type VariableScope = Readonly<Record<string, unknown>>;

// Segments are letters, digits, `_` and `-` (node ids such as `llm-1`); a dot separates them.
const REFERENCE_BODY = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*$/u;
const BRACES = /\{\{([^{}]*)\}\}/g;
/**
 * Parsed templates, LRU-evicted (see `TwoGenerationCache`). 20,000 templates per generation
 * holds every template of a 10,000-node workflow across runs; the character budget keeps a
 * cache of long prompts to a few megabytes. At most twice each bound is held.
 */
const TEMPLATES_PER_GENERATION = 20_000;
const TEMPLATE_CHARACTERS_PER_GENERATION = 2_000_000;
const templateCache = new TwoGenerationCache<ParsedTemplate>(
  TEMPLATES_PER_GENERATION,
  TEMPLATE_CHARACTERS_PER_GENERATION,
);
const NO_REFERENCES: ParsedTemplate = { segments: [], references: [] };

function kindOf(root: string): VariableReferenceKind {
  return root === "item" || root === "index" || root === "env" ? root : "node";
}

/** Formats a reference back into template text. */
export function formatReference(root: string, path: readonly string[] = []): string {
  return `{{${[root, ...path].join(".")}}}`;
}

function makeReference(segments: string[], text: string): VariableReference {
  const [root, ...path] = segments;
  return { kind: kindOf(root), root, path, text };
}

function parseUncached(template: string): ParsedTemplate {
  const segments: (string | VariableReference)[] = [];
  const references: VariableReference[] = [];
  let literalStart = 0;
  for (const match of template.matchAll(BRACES)) {
    const body = match[1].trim();
    // Anything that is not a well-formed reference stays literal text, as users expect from `{{ }}`.
    if (!REFERENCE_BODY.test(body)) continue;
    const start = match.index;
    if (start > literalStart) segments.push(template.slice(literalStart, start));
    const reference = makeReference(body.split("."), match[0]);
    segments.push(reference);
    references.push(reference);
    literalStart = start + match[0].length;
  }
  if (literalStart < template.length) segments.push(template.slice(literalStart));
  const onlyReferences = segments.filter((segment) => typeof segment !== "string" || segment.trim() !== "");
  const single =
    references.length === 1 && onlyReferences.length === 1 && typeof onlyReferences[0] !== "string"
      ? references[0]
      : undefined;
  return single ? { segments, references, single } : { segments, references };
}

/** Splits a template into literals and references (cached). */
export function parseTemplate(template: string): ParsedTemplate {
  if (!template.includes("{{")) return template === "" ? NO_REFERENCES : { segments: [template], references: [] };
  const cached = templateCache.get(template);
  if (cached) return cached;
  const parsed = parseUncached(template);
  templateCache.set(template, parsed);
  return parsed;
}

/** The references in a template, in order of appearance. */
export function extractReferences(template: string): VariableReference[] {
  return [...parseTemplate(template).references];
}

/** Reads a selector such as `["nodeId", "field"]` as a reference; `undefined` when it is empty. */
export function referenceFromSelector(selector: readonly string[]): VariableReference | undefined {
  if (selector.length === 0) return undefined;
  return makeReference([...selector], formatReference(selector[0], selector.slice(1)));
}

/** Walks a path through objects and arrays; own properties only, so `constructor` never leaks. */
function walk(value: unknown, path: readonly string[], from: number): unknown {
  let current = value;
  for (let index = from; index < path.length; index++) {
    const segment = path[index];
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** The value a selector points at; `undefined` when any step is missing. */
export function resolveSelector(selector: readonly string[], scope: VariableScope): unknown {
  if (selector.length === 0 || !Object.hasOwn(scope, selector[0])) return undefined;
  return walk(scope[selector[0]], selector, 1);
}

function resolveReference(reference: VariableReference, scope: VariableScope): unknown {
  if (!Object.hasOwn(scope, reference.root)) return undefined;
  return walk(scope[reference.root], reference.path, 0);
}

/** How a value appears inside text: strings as-is, objects as JSON, null and undefined as nothing. */
export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") {
    try {
      return JSON.stringify(value);
    } catch {
      // Cyclic or BigInt-holding values cannot be JSON; a string beats failing the node.
      return String(value);
    }
  }
  return String(value);
}

/** Renders a template; missing references become empty strings and are reported. */
export function renderTemplate(template: string, scope: VariableScope, options?: RenderOptions): string {
  // Plain text renders as itself; checked first so it costs no parse result per render.
  if (!template.includes("{{")) return template;
  const parsed = parseTemplate(template);
  if (parsed.references.length === 0) return template;
  let text = "";
  for (const segment of parsed.segments) {
    if (typeof segment === "string") {
      text += segment;
      continue;
    }
    const value = resolveReference(segment, scope);
    if (value === undefined) options?.onMissing?.(segment);
    text += stringifyValue(value);
  }
  return text;
}

/**
 * Resolves a template or selector to a value. A template that is exactly one reference returns
 * the raw value (so `{{item.input}}` stays an object); any other template renders to text.
 */
export function resolveValue(
  value: string | readonly string[],
  scope: VariableScope,
  options?: RenderOptions,
): unknown {
  if (typeof value !== "string") {
    const reference = referenceFromSelector(value);
    const resolved = resolveSelector(value, scope);
    if (resolved === undefined && reference) options?.onMissing?.(reference);
    return resolved;
  }
  const parsed = parseTemplate(value);
  if (parsed.single) {
    const resolved = resolveReference(parsed.single, scope);
    if (resolved === undefined) options?.onMissing?.(parsed.single);
    return resolved;
  }
  return renderTemplate(value, scope, options);
}

/**
 * Template and selector evaluation used by executors. It follows the document syntax
 * (`{{nodeId.path.to.field}}`, `{{item}}`, `{{index}}`, `{{env.NAME}}`). Variables may be
 * prototype-chained objects (iteration scopes inherit their parent's outputs), so lookups use
 * plain property access, never own-property checks.
 */

const TEMPLATE_PATTERN = /\{\{\s*([^{}]+?)\s*\}\}/g;
const WHOLE_REFERENCE = /^\{\{\s*([^{}]+?)\s*\}\}$/;

/** Splits `a.b[0].c` into `["a", "b", "0", "c"]`. */
export function parseReference(reference: string): string[] {
  return reference
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((part) => part.length > 0);
}

/** Looks a selector (`["nodeId", "field", ...]`) up in the variables; undefined when any step is missing. */
export function resolveSelector(selector: readonly string[], variables: Record<string, unknown>): unknown {
  let current: unknown = variables;
  for (const part of selector) {
    if (current === null || current === undefined) return undefined;
    if (typeof current !== "object" && typeof current !== "string") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Text form of a value inside a rendered string: objects as JSON, null/undefined as empty. */
export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

/** Replaces every `{{reference}}` in the template with its value's text form. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  if (!template.includes("{{")) return template;
  return template.replace(TEMPLATE_PATTERN, (_, reference: string) =>
    stringifyValue(resolveSelector(parseReference(reference), variables)),
  );
}

/**
 * Resolves a config value that may contain templates. A string that is exactly one reference
 * yields the referenced value itself, so objects and arrays stay structured; other strings are
 * rendered; arrays and plain objects are resolved recursively.
 */
export function resolveValue(value: unknown, variables: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = WHOLE_REFERENCE.exec(value);
    if (whole) return resolveSelector(parseReference(whole[1]), variables);
    return renderTemplate(value, variables);
  }
  if (Array.isArray(value)) return value.map((entry) => resolveValue(entry, variables));
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) result[key] = resolveValue(entry, variables);
    return result;
  }
  return value;
}

import { formatReference } from "../../workflow/variables";

/** Outcome of converting a Jinja2 template. */
export interface JinjaConversion {
  /** The Trellis template. */
  template: string;
  /** What was changed on the way (filters dropped, comments removed). */
  changes: string[];
}

const EXPRESSION = /\{\{-?\s*([^{}]*?)\s*-?\}\}/g;
const IDENTIFIER_PATH = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)$/;

/**
 * Converts the Jinja2 subset Trellis templates can express: `{{ name }}`, `{{ name.field }}` and
 * `{{ name[0] }}` where `name` is one of the node's declared variables. Filters are dropped (and
 * reported). Templates with `{% … %}` blocks (`hasJinjaBlocks`) are not for this: callers render
 * them with Jinja2 itself (`jinjaRenderPython`).
 */
export function convertJinja(source: string, variables: ReadonlyMap<string, string[]>): JinjaConversion {
  const changes: string[] = [];
  let text = source;
  if (/\{#/.test(text)) {
    text = text.replace(/\{#[\s\S]*?#\}/g, "");
    changes.push("Jinja2 comments {# … #} were removed");
  }
  const template = text.replace(EXPRESSION, (match, expression: string) => {
    const [head, ...filters] = expression.split("|").map((part) => part.trim());
    const parsed = IDENTIFIER_PATH.exec(head ?? "");
    const selector = parsed ? variables.get(parsed[1]!) : undefined;
    if (!parsed || !selector) {
      changes.push(`"${match}" is not a plain variable of this node; kept as literal text`);
      return match;
    }
    if (filters.length > 0) changes.push(`Filter "| ${filters.join(" | ")}" on ${parsed[1]} was dropped`);
    const path = (parsed[2] ?? "").split(/\.|\[|\]/).filter((segment) => segment !== "");
    return selector.length === 0 ? "" : formatReference(selector[0]!, [...selector.slice(1), ...path]);
  });
  return { template, changes };
}

/** Whether a Jinja2 template has `{% … %}` blocks, which only Jinja2 itself can render. */
export function hasJinjaBlocks(template: unknown): boolean {
  return typeof template === "string" && /\{%/.test(template);
}

/**
 * Python that renders Jinja2 templates the way Dify does (Dify sends
 * `jinja2.Template(template).render(**inputs)` to its code sandbox, for template-transform nodes
 * and Jinja2 prompts alike): for templates with `{% … %}` blocks, which Trellis templates cannot
 * express, run on the code sandbox service. It returns one field per template, each rendered with
 * every input. The templates are JSON string literals, which Python reads as the same strings.
 */
export function jinjaRenderPython(templates: Record<string, string>): string {
  const entries = Object.entries(templates).map(
    ([field, template]) => `    ${JSON.stringify(field)}: ${JSON.stringify(template)},`,
  );
  return [
    "import jinja2",
    "",
    "# The Dify templates, rendered as Dify renders them (jinja2.Template, default settings).",
    "TEMPLATES = {",
    ...entries,
    "}",
    "",
    "",
    "def main(**inputs) -> dict:",
    "    return {field: jinja2.Template(template).render(**inputs) for field, template in TEMPLATES.items()}",
    "",
  ].join("\n");
}

import { z } from "zod";
import type { ValueType } from "../node-definition";
import type { DeclaredValueType } from "../value-types";

/** The model a fresh LLM-backed node points at; `default` lets the server pick its configured provider. */
export const DEFAULT_MODEL = { provider: "default", model: "gpt-4o-mini" } as const;

/** `{ provider, model }`: resolved to a live model by the engine's ModelResolver. */
export const modelReferenceSchema = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
});

/** A model reference as parsed. */
export type ModelReference = z.output<typeof modelReferenceSchema>;

/** A model reference field that falls back to the default model. */
export function modelField() {
  return modelReferenceSchema.default(() => ({ ...DEFAULT_MODEL }));
}

/** The most a node may allow one model attempt, so a typo cannot park a run for days. */
export const MAX_MODEL_TIMEOUT_MS = 3_600_000;

/**
 * Per-node time bounds of each model attempt, over the provider's (defaults: 60 s to the first
 * streamed byte, 300 s per attempt). A hung provider then ends the node with `model_timeout`.
 */
export const modelTimeoutsSchema = z
  .object({
    firstByteMs: z
      .number()
      .int()
      .positive()
      .max(MAX_MODEL_TIMEOUT_MS)
      .optional()
      .describe("Time to the first streamed byte of one attempt; the provider's setting (60 s) when empty"),
    totalMs: z
      .number()
      .int()
      .positive()
      .max(MAX_MODEL_TIMEOUT_MS)
      .optional()
      .describe("Time for one whole attempt; the provider's setting (300 s) when empty"),
  })
  .optional();

/** Per-node model time bounds as parsed. */
export type ModelTimeouts = z.output<typeof modelTimeoutsSchema>;

/** A selector such as `["nodeId", "field"]`, `["item", "x"]` or `["env", "NAME"]`. */
export const selectorSchema = z.array(z.string().min(1));

/** Either a `{{...}}` template string or a selector; whichever the form produced. */
export const templateOrSelectorSchema = z.union([z.string(), selectorSchema]);

/** A template string or selector as parsed. */
export type TemplateOrSelector = z.output<typeof templateOrSelectorSchema>;

/** A header or query pair; both sides are templates. */
export const keyValueSchema = z.object({ key: z.string(), value: z.string() });

/** Names used as output fields must be usable inside `{{node.name}}` and as JS identifiers. */
export const identifierSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Use letters, digits and underscores, not starting with a digit");

/** Value types a user may declare for start inputs and code outputs. */
export const declaredValueTypeSchema = z.enum([
  "string",
  "number",
  "boolean",
  "object",
  "array",
  "array<string>",
  "array<number>",
  "array<boolean>",
  "array<object>",
]) satisfies z.ZodType<DeclaredValueType>;

/** Every ValueType, for schemas that accept any of them. */
export const valueTypeSchema = z.enum([
  "string",
  "number",
  "boolean",
  "object",
  "array",
  "array<object>",
  "array<string>",
  "array<number>",
  "array<boolean>",
  "any",
]) satisfies z.ZodType<ValueType>;

/** Adds one zod issue per repeated `name`, pointing at the later duplicate. */
export function checkUniqueNames(
  items: readonly { name: string }[],
  context: z.RefinementCtx,
  basePath: (string | number)[],
  key = "name",
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.name)) {
      context.addIssue({
        code: "custom",
        message: `Duplicate ${key} "${item.name}"`,
        path: [...basePath, index, key],
      });
    }
    seen.add(item.name);
  });
}

/** A usage entry for a template-or-selector value; empty values read nothing. */
export function usageOf(
  path: (string | number)[],
  value: TemplateOrSelector | undefined,
): { path: (string | number)[]; template: string } | { path: (string | number)[]; selector: string[] } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value.includes("{{") ? { path, template: value } : undefined;
  return value.length > 0 ? { path, selector: value } : undefined;
}

/** A template usage, skipped when the string holds no `{{`. */
export function templateUsage(
  path: (string | number)[],
  template: string | undefined,
): { path: (string | number)[]; template: string } | undefined {
  return template?.includes("{{") ? { path, template } : undefined;
}

/** Whether a template or selector is unset. */
export function isBlank(value: TemplateOrSelector | undefined): boolean {
  if (value === undefined) return true;
  return typeof value === "string" ? value.trim() === "" : value.length === 0;
}

/** Shortens text for one-line canvas summaries. */
export function truncate(text: string, length = 48): string {
  const singleLine = text.replace(/\s+/g, " ").trim();
  return singleLine.length > length ? `${singleLine.slice(0, length - 1)}…` : singleLine;
}

/** "1 input", "3 inputs": counts in card summaries. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

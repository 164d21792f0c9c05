import type { VariableOption } from "../upstream-variables";

/** Roots a template may read without an upstream node: the iteration's item and index, and env. */
const RESERVED_ROOTS = ["item", "index", "env"];

/** True when the text between `{{` and `}}` names a visible variable (or a reserved root). */
export function isKnownReference(reference: string, variables: VariableOption[]): boolean {
  const trimmed = reference.trim();
  const root = trimmed.split(".")[0] ?? "";
  if (RESERVED_ROOTS.includes(root)) return true;
  return variables.some((option) => trimmed === option.reference || trimmed.startsWith(`${option.reference}.`));
}

let environmentNames: Promise<string[]> | null = null;

/**
 * The `{{env.*}}` names of the workspace and the server, fetched once per page load when a
 * completion first needs them (a failed fetch offers none and is retried next time).
 */
export function loadEnvironmentNames(): Promise<string[]> {
  environmentNames ??= fetch("/api/variables")
    .then((response) => (response.ok ? response.json() : { variables: [], server: [] }))
    .then((body: { variables?: { name: string }[]; server?: { name: string }[] }) => {
      const names = new Set([...(body.variables ?? []), ...(body.server ?? [])].map((entry) => entry.name));
      return [...names].sort();
    })
    .catch(() => {
      environmentNames = null;
      return [];
    });
  return environmentNames;
}

/**
 * The marks of `{{…}}` references, the same in the CodeMirror editor (decoration classes) and in
 * the one-line field's backdrop. The `cm-template-variable-*` names are hooks for tests; the look
 * is the utilities beside them.
 */
export const REFERENCE_MARK_CLASS_NAME = {
  known: "cm-template-variable cm-template-variable-known rounded-xs bg-primary/22",
  unknown: "cm-template-variable cm-template-variable-unknown rounded-xs bg-destructive/28",
} as const;

/** What the required-input rule reads of a start node's declared input (raw draft data may miss defaults). */
export interface DeclaredRunInput {
  /** Input name. */
  name: string;
  /** Whether a run must supply it. */
  required?: boolean;
  /** Used when the run supplies nothing. */
  default?: unknown;
}

/** Whether a run input value counts as not given; the engine's start node uses the same rule. */
export function isMissingRunInput(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * The required inputs that `values` leaves empty and that have no default, in declaration order:
 * what the Run and Schedule dialogs refuse before asking the server.
 */
export function missingRequiredInputs(
  declared: readonly DeclaredRunInput[] | null | undefined,
  values: Record<string, unknown>,
): string[] {
  return (declared ?? [])
    .filter((input) => input.required === true && input.default === undefined && isMissingRunInput(values[input.name]))
    .map((input) => input.name);
}

/** "Fill in question." / "Fill in question and city." for the dialogs. */
export function describeMissingInputs(names: readonly string[]): string {
  if (names.length === 0) return "";
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `Fill in the required input${names.length === 1 ? "" : "s"} ${list}.`;
}

import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { VariableOption } from "../upstream-variables";

/** The `{{` being typed before the caret, up to the caret (no spaces or braces inside). */
const OPEN_REFERENCE = /\{\{[^\s{}]*$/;

/** How many upstream outputs the list offers at most (the env names follow them). */
const MAX_VARIABLE_OPTIONS = 50;

/**
 * The options for one query (the text typed after `{{`): upstream outputs whose reference or
 * node title contains it, then the matching `env.NAME`s. `closed` is true when `}}` already
 * follows the caret, so picking does not add a second pair.
 */
export function referenceOptions(
  query: string,
  variables: VariableOption[],
  environmentNames: string[],
  closed: boolean,
): Completion[] {
  const needle = query.toLowerCase();
  const apply = (reference: string) => (closed ? reference : `${reference}}}`);
  const options: Completion[] = variables
    .filter(
      (option) => option.reference.toLowerCase().includes(needle) || option.nodeTitle.toLowerCase().includes(needle),
    )
    .slice(0, MAX_VARIABLE_OPTIONS)
    .map((option) => ({
      label: option.reference,
      detail: `${option.nodeTitle} · ${option.type}`,
      info: option.description,
      type: "variable",
      apply: apply(option.reference),
    }));
  for (const name of environmentNames) {
    const reference = `env.${name}`;
    if (!reference.toLowerCase().includes(needle)) continue;
    options.push({ label: reference, detail: "environment", type: "constant", apply: apply(reference) });
  }
  return options;
}

/**
 * The completion result at the context's caret, or null when no `{{` is being typed there.
 *
 * The result carries a synchronous `update`: when a character narrows the query (`{{` then
 * `quest`), CodeMirror re-filters it inside the same transaction. Without it, a result filtered
 * here (`filter: false`) and without `validFor` goes back to "pending" on every keystroke until
 * the source is queried again (after `activateOnTypingDelay` and a promise). In that window the
 * old list stays drawn but disabled, and a click or Enter on it is silently dropped (issue 13).
 */
export function referenceCompletionAt(
  context: CompletionContext,
  variables: () => VariableOption[],
  environmentNames: string[],
): CompletionResult | null {
  const match = context.matchBefore(OPEN_REFERENCE);
  if (!match) return null;
  const from = match.from + 2;
  const closed = context.state.sliceDoc(context.pos, context.pos + 2) === "}}";
  const options = referenceOptions(match.text.slice(2), variables(), environmentNames, closed);
  if (options.length === 0) return null;
  return {
    from,
    options,
    filter: false,
    update: (_current, _from, _to, next) => referenceCompletionAt(next, variables, environmentNames),
  };
}

/**
 * The CodeMirror completion source for template references. It waits for the environment
 * names only the first time they are needed (`loadEnvironmentNames` caches them); every later
 * narrowing is answered synchronously by the result's `update`.
 */
export function referenceCompletionSource(
  variables: () => VariableOption[],
  loadEnvironmentNames: () => Promise<string[]>,
): CompletionSource {
  return async (context) => {
    if (!context.matchBefore(OPEN_REFERENCE)) return null;
    return referenceCompletionAt(context, variables, await loadEnvironmentNames());
  };
}

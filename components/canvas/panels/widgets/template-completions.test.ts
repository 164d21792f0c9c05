import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { VariableOption } from "../upstream-variables";
import { referenceCompletionAt, referenceCompletionSource, referenceOptions } from "./template-completions";

const variables: VariableOption[] = [
  { reference: "start.question", selector: ["start", "question"], nodeTitle: "Start", type: "string" },
  { reference: "start.user_id", selector: ["start", "user_id"], nodeTitle: "Start", type: "string" },
  { reference: "planner_1.steps", selector: ["planner_1", "steps"], nodeTitle: "Planner", type: "array" },
];

/** A context at the end of `text`, as CodeMirror builds one for a typed character. */
function contextAtEnd(text: string): CompletionContext {
  const state = EditorState.create({ doc: text });
  return new CompletionContext(state, text.length, false);
}

function labels(result: CompletionResult | null): string[] {
  return result ? result.options.map((option) => option.label) : [];
}

describe("template reference completion", () => {
  it("offers upstream outputs, then env names, filtered by reference or node title", () => {
    expect(referenceOptions("", variables, ["API_BASE"], false).map((option) => option.label)).toEqual([
      "start.question",
      "start.user_id",
      "planner_1.steps",
      "env.API_BASE",
    ]);
    expect(referenceOptions("plan", variables, [], false).map((option) => option.label)).toEqual(["planner_1.steps"]);
    expect(referenceOptions("quest", variables, [], false)[0]?.apply).toBe("start.question}}");
    expect(referenceOptions("quest", variables, [], true)[0]?.apply).toBe("start.question");
  });

  it("answers only while a {{ is open before the caret", async () => {
    const source = referenceCompletionSource(
      () => variables,
      async () => ["API_BASE"],
    );
    expect(await source(contextAtEnd("Answer this: "))).toBeNull();
    expect(await source(contextAtEnd("Answer {{start.question}} "))).toBeNull();
    const result = await source(contextAtEnd("Answer {{"));
    expect(result?.from).toBe("Answer {{".length);
    expect(labels(result)).toHaveLength(4);
  });

  // The root cause of the dropped pick: a result without `update` (or `validFor`) goes back to
  // "pending" on every typed character, and CodeMirror ignores a click or Enter on the disabled
  // list until the next asynchronous query answers. The result must narrow synchronously.
  it("narrows synchronously as the query is typed, so the list is never stale", async () => {
    const source = referenceCompletionSource(
      () => variables,
      async () => ["API_BASE"],
    );
    let result = await source(contextAtEnd("Answer this: {{"));
    expect(result?.update).toBeTypeOf("function");
    let text = "Answer this: {{";
    for (const character of "quest") {
      text += character;
      const next = result?.update?.(result, result.from, text.length, contextAtEnd(text)) ?? null;
      expect(next, `after typing "${text}"`).not.toBeNull();
      result = next;
    }
    expect(labels(result)).toEqual(["start.question"]);
    expect(result?.from).toBe("Answer this: {{".length);

    // A space ends the reference: no result, so the list closes instead of offering stale options.
    expect(result?.update?.(result, result.from, text.length + 1, contextAtEnd(`${text} `))).toBeNull();
  });

  it("gives no result when nothing matches", () => {
    expect(referenceCompletionAt(contextAtEnd("{{zzz"), () => variables, [])).toBeNull();
  });
});

"use client";

import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from "@codemirror/autocomplete";
import { type Extension, RangeSetBuilder } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, tooltips, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import CodeMirror from "@uiw/react-codemirror";
import { useTheme } from "next-themes";
import { useMemo, useRef } from "react";
import type { VariableOption } from "../upstream-variables";
import { isKnownReference, loadEnvironmentNames } from "./template-references";

const REFERENCE = /\{\{[^{}]*\}\}/g;

const knownMark = Decoration.mark({ class: "cm-template-variable cm-template-variable-known" });
const unknownMark = Decoration.mark({ class: "cm-template-variable cm-template-variable-unknown" });

/** Marks every `{{…}}` of the visible text, red when it names nothing upstream. */
function referenceHighlighter(variables: () => VariableOption[]): Extension {
  const build = (view: EditorView): DecorationSet => {
    const builder = new RangeSetBuilder<Decoration>();
    for (const { from, to } of view.visibleRanges) {
      const text = view.state.doc.sliceString(from, to);
      for (const match of text.matchAll(REFERENCE)) {
        const start = from + (match.index ?? 0);
        const known = isKnownReference(match[0].slice(2, -2), variables());
        builder.add(start, start + match[0].length, known ? knownMark : unknownMark);
      }
    }
    return builder.finish();
  };
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = build(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged) this.decorations = build(update.view);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}

/**
 * Completes the `{{` being typed: upstream outputs with their node and type, then `env.NAME` of
 * the workspace and the server. The list is filtered here (a substring of the reference or of the
 * node's title, as before), not by CodeMirror's fuzzy match, so "quest" finds `start.question` only.
 */
function referenceCompletions(variables: () => VariableOption[]) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const match = context.matchBefore(/\{\{[^\s{}]*$/);
    if (!match) return null;
    const from = match.from + 2;
    const query = match.text.slice(2).toLowerCase();
    const closed = context.state.sliceDoc(context.pos, context.pos + 2) === "}}";
    const apply = (reference: string) => (closed ? reference : `${reference}}}`);
    const options: Completion[] = variables()
      .filter(
        (option) => option.reference.toLowerCase().includes(query) || option.nodeTitle.toLowerCase().includes(query),
      )
      .slice(0, 50)
      .map((option) => ({
        label: option.reference,
        detail: `${option.nodeTitle} · ${option.type}`,
        info: option.description,
        type: "variable",
        apply: apply(option.reference),
      }));
    for (const name of await loadEnvironmentNames()) {
      const reference = `env.${name}`;
      if (!reference.toLowerCase().includes(query)) continue;
      options.push({ label: reference, detail: "environment", type: "constant", apply: apply(reference) });
    }
    return options.length > 0 ? { from, options, filter: false } : null;
  };
}

/**
 * A CodeMirror 6 editor for prompt templates (LLM, agent, planner and synthesizer prompts, the
 * template node): `{{node.output}}` and `{{env.NAME}}` references are highlighted, unknown ones in
 * red, and typing `{{` opens their completion. The editable element (`.cm-content`) carries the
 * field's `id` (so the Problems panel can focus it), its test id and its label. Tab leaves the
 * field, as in a textarea, so it is no keyboard trap.
 */
export function TemplateCodeEditor({
  id,
  testId,
  labelId,
  value,
  onChange,
  variables,
  readOnly = false,
  placeholder,
}: {
  id?: string;
  testId?: string;
  /** The id of the field's `<label>`: the editor's accessible name. */
  labelId?: string;
  value: string;
  onChange: (value: string) => void;
  variables: VariableOption[];
  readOnly?: boolean;
  placeholder?: string;
}) {
  const { resolvedTheme } = useTheme();
  const latest = useRef(variables);
  latest.current = variables;
  const variablesKey = variables.map((option) => option.reference).join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the highlighter re-reads `latest`; a changed set of references re-marks the text
  const extensions = useMemo(
    () => [
      EditorView.lineWrapping,
      referenceHighlighter(() => latest.current),
      autocompletion({
        override: [referenceCompletions(() => latest.current)],
        icons: false,
        // The list opens because `{{` was typed: Enter right after picks from it (CodeMirror's
        // default ignores Enter for 75 ms after the list changes, and a quick typist gets a newline).
        interactionDelay: 0,
      }),
      // In the page's body, so the config panel's scroll box does not clip the completion list.
      tooltips({ parent: document.body }),
      EditorView.contentAttributes.of({
        ...(id ? { id } : {}),
        ...(testId ? { "data-testid": testId } : {}),
        ...(labelId ? { "aria-labelledby": labelId } : { "aria-label": "Prompt template" }),
        ...(readOnly ? { "aria-disabled": "true" } : {}),
      }),
    ],
    [id, testId, labelId, readOnly, variablesKey],
  );
  return (
    <div
      className="prompt-code-editor nodrag nowheel overflow-hidden rounded-md border border-input"
      data-testid={testId ? `${testId}-editor` : undefined}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={resolvedTheme === "dark" ? "dark" : "light"}
        editable={!readOnly}
        readOnly={readOnly}
        indentWithTab={false}
        placeholder={placeholder}
        minHeight="72px"
        maxHeight="360px"
        basicSetup={{
          lineNumbers: false,
          foldGutter: false,
          highlightActiveLine: false,
          highlightActiveLineGutter: false,
          autocompletion: false,
          bracketMatching: false,
          closeBrackets: false,
          indentOnInput: false,
          searchKeymap: false,
        }}
      />
    </div>
  );
}

"use client";

import { autocompletion } from "@codemirror/autocomplete";
import { type Extension, RangeSetBuilder } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, tooltips, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import CodeMirror, { type BasicSetupOptions } from "@uiw/react-codemirror";
import { useCallback, useMemo, useRef } from "react";
import type { VariableOption } from "../upstream-variables";
import { CODE_MIRROR_BOX_CLASS_NAME, useCodeMirrorTheme } from "./code-mirror-look";
import { referenceCompletionSource } from "./template-completions";
import { isKnownReference, loadEnvironmentNames, REFERENCE_MARK_CLASS_NAME } from "./template-references";

const REFERENCE = /\{\{[^{}]*\}\}/g;

const knownMark = Decoration.mark({ class: REFERENCE_MARK_CLASS_NAME.known });
const unknownMark = Decoration.mark({ class: REFERENCE_MARK_CLASS_NAME.unknown });

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
 * The basic setup, one object for the module's lifetime: `@uiw/react-codemirror` reconfigures the
 * whole editor whenever `basicSetup`, `extensions` or `onChange` change identity, so a literal
 * here (or an inline `onChange`) would rebuild every extension on every keystroke of the parent.
 */
const BASIC_SETUP: BasicSetupOptions = {
  lineNumbers: false,
  foldGutter: false,
  highlightActiveLine: false,
  highlightActiveLineGutter: false,
  autocompletion: false,
  bracketMatching: false,
  closeBrackets: false,
  indentOnInput: false,
  searchKeymap: false,
};

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
  const theme = useCodeMirrorTheme();
  const latest = useRef(variables);
  latest.current = variables;
  // The parent passes a new `onChange` on each render: keep the one handed to CodeMirror stable.
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  const stableOnChange = useCallback((next: string) => latestOnChange.current(next), []);
  const variablesKey = variables.map((option) => option.reference).join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the highlighter re-reads `latest`; a changed set of references re-marks the text
  const extensions = useMemo(
    () => [
      EditorView.lineWrapping,
      referenceHighlighter(() => latest.current),
      autocompletion({
        override: [referenceCompletionSource(() => latest.current, loadEnvironmentNames)],
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
    <div className={CODE_MIRROR_BOX_CLASS_NAME} data-testid={testId ? `${testId}-editor` : undefined}>
      <CodeMirror
        value={value}
        onChange={stableOnChange}
        extensions={extensions}
        theme={theme}
        editable={!readOnly}
        readOnly={readOnly}
        indentWithTab={false}
        placeholder={placeholder}
        minHeight="72px"
        maxHeight="360px"
        basicSetup={BASIC_SETUP}
      />
    </div>
  );
}

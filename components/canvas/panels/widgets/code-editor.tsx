"use client";

import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { type Diagnostic, linter, lintGutter } from "@codemirror/lint";
import { EditorView } from "@codemirror/view";
import CodeMirror from "@uiw/react-codemirror";
import { useMemo } from "react";
import { CODE_LANGUAGE_LABELS, type CodeLanguage } from "@/lib/workflow/nodes/code";
import { findCodeProblems } from "./code-lint";
import { CODE_MIRROR_BOX_CLASS_NAME, useCodeMirrorTheme } from "./code-mirror-look";

/** Lint errors as the sandbox would report them, updated as one types. */
const sandboxLinter = linter(
  (view): Diagnostic[] =>
    findCodeProblems(view.state.doc.toString()).map((problem) => ({
      from: problem.from,
      to: problem.to,
      severity: "error",
      message: problem.message,
      source: "sandbox",
    })),
  { delay: 300 },
);

const NO_PROBLEMS: ReturnType<typeof findCodeProblems> = [];

/**
 * The code node's editor (CodeMirror 6): highlighting, brackets and completion for the node's
 * language. JavaScript also gets lint errors from the same script rules the sandbox applies
 * (`findCodeProblems`); Python is checked by the sandbox service when it runs. The problem count is
 * exposed as `data-problems` for tests and the panel.
 */
export function CodeEditor({
  id,
  testId,
  value,
  onChange,
  language = "javascript",
}: {
  id: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  language?: CodeLanguage;
}) {
  const theme = useCodeMirrorTheme();
  const extensions = useMemo(
    () => [
      ...(language === "python3" ? [python()] : [javascript(), lintGutter(), sandboxLinter]),
      // On the editable element itself: the field's label points at this id, and screen readers
      // name the text box by the language ("Python code").
      EditorView.contentAttributes.of({ id, "aria-label": `${CODE_LANGUAGE_LABELS[language]} code` }),
    ],
    [id, language],
  );
  const problems = useMemo(() => (language === "python3" ? NO_PROBLEMS : findCodeProblems(value)), [language, value]);
  return (
    <div
      className={CODE_MIRROR_BOX_CLASS_NAME}
      data-testid={testId}
      data-problems={problems.length}
      data-language={language}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={theme}
        minHeight="140px"
        maxHeight="420px"
        basicSetup={{ foldGutter: false, highlightActiveLine: true, autocompletion: true }}
      />
      {problems.length > 0 && (
        <div className="border-t border-border px-2 py-1 text-xs text-destructive" data-testid="code-problems">
          {problems[0].message}
          {problems.length > 1 && ` (+${problems.length - 1} more)`}
        </div>
      )}
    </div>
  );
}

"use client";

import { javascript } from "@codemirror/lang-javascript";
import { type Diagnostic, linter, lintGutter } from "@codemirror/lint";
import CodeMirror from "@uiw/react-codemirror";
import { useMemo } from "react";
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

/**
 * The code node's JavaScript editor (CodeMirror 6): highlighting, brackets, completion of
 * JavaScript words, and lint errors from the same script rules the sandbox applies
 * (`findCodeProblems`). The problem count is exposed as `data-problems` for tests and the panel.
 */
export function CodeEditor({
  id,
  testId,
  value,
  onChange,
}: {
  id: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const theme = useCodeMirrorTheme();
  const extensions = useMemo(() => [javascript(), lintGutter(), sandboxLinter], []);
  const problems = useMemo(() => findCodeProblems(value), [value]);
  return (
    <div className={CODE_MIRROR_BOX_CLASS_NAME} data-testid={testId} data-problems={problems.length}>
      <CodeMirror
        id={id}
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={theme}
        minHeight="140px"
        maxHeight="420px"
        basicSetup={{ foldGutter: false, highlightActiveLine: true, autocompletion: true }}
        aria-label="JavaScript code"
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

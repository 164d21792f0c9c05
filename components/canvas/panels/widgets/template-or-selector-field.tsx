"use client";

import { Button } from "@/components/ui/button";
import type { VariableOption } from "../upstream-variables";
import { PromptEditor } from "./prompt-editor";
import { VariablePicker } from "./variable-picker";

/** A value that is either a template or a selector. */
export function TemplateOrSelectorField({
  id,
  testId,
  value,
  onChange,
  variables,
}: {
  id: string;
  testId: string;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Upstream variables to pick from, and for the template's autocomplete. */
  variables: VariableOption[];
}) {
  const isSelector = Array.isArray(value);
  return (
    <div className="flex items-start gap-1 *:first:min-w-0 *:first:flex-1">
      {isSelector ? (
        <VariablePicker id={id} testId={testId} value={value as string[]} onChange={onChange} variables={variables} />
      ) : (
        <PromptEditor
          id={id}
          testId={testId}
          value={typeof value === "string" ? value : ""}
          onChange={onChange}
          variables={variables}
          multiline={false}
        />
      )}
      <Button variant="ghost" onClick={() => onChange(isSelector ? "" : [])}>
        {isSelector ? "Use text" : "Pick variable"}
      </Button>
    </div>
  );
}

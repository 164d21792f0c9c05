"use client";

import type { VariableOption } from "../upstream-variables";
import { PromptEditor } from "./prompt-editor";

/** One editable pair. */
export interface KeyValuePair {
  /** Key. */
  key: string;
  /** Value (a template). */
  value: string;
}

/** Edits a list of key/value pairs; values are templates with variable autocomplete. */
export function KeyValueEditor({
  pairs,
  onChange,
  variables,
  testId,
}: {
  pairs: KeyValuePair[];
  onChange: (pairs: KeyValuePair[]) => void;
  variables: VariableOption[];
  testId?: string;
}) {
  const update = (index: number, patch: Partial<KeyValuePair>) =>
    onChange(pairs.map((pair, position) => (position === index ? { ...pair, ...patch } : pair)));
  return (
    <div className="key-value" data-testid={testId}>
      {pairs.map((pair, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pairs are edited in place; keys may repeat while typing
        <div className="key-value-row" key={index}>
          <input
            className="input"
            placeholder="key"
            value={pair.key}
            onChange={(event) => update(index, { key: event.target.value })}
            data-testid="kv-key"
          />
          <PromptEditor
            value={pair.value}
            multiline={false}
            variables={variables}
            onChange={(value) => update(index, { value })}
            placeholder="value or {{variable}}"
            testId="kv-value"
          />
          <button
            type="button"
            className="button-ghost"
            aria-label="Remove"
            onClick={() => onChange(pairs.filter((_, position) => position !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button-small"
        data-testid="kv-add"
        onClick={() => onChange([...pairs, { key: "", value: "" }])}
      >
        + Add
      </button>
    </div>
  );
}

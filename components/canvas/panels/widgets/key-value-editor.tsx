"use client";

import { PlusIcon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
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
    <div className="flex flex-col items-start gap-1" data-testid={testId}>
      {pairs.map((pair, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pairs are edited in place; keys may repeat while typing
        <div className="grid w-full grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)_auto] items-start gap-1" key={index}>
          <Input
            className="font-mono text-xs"
            placeholder="key"
            aria-label={`Key ${index + 1}`}
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
            ariaLabel={`Value ${index + 1}`}
            testId="kv-value"
          />
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove pair ${index + 1}`}
            onClick={() => onChange(pairs.filter((_, position) => position !== index))}
          >
            <XIcon />
          </Button>
        </div>
      ))}
      <Button size="sm" data-testid="kv-add" onClick={() => onChange([...pairs, { key: "", value: "" }])}>
        <PlusIcon /> Add
      </Button>
    </div>
  );
}

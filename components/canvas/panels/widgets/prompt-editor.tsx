"use client";

import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { useEditorStore } from "../../store/editor-store-context";
import type { VariableOption } from "../upstream-variables";
import { TemplateCodeEditor } from "./template-code-editor";
import { isKnownReference } from "./template-references";

/** The `{{` being typed before the caret, or null. */
function openReferenceAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf("{{");
  if (open < 0 || before.lastIndexOf("}}") > open) return null;
  const query = before.slice(open + 2);
  return /\s/.test(query) ? null : { start: open + 2, query };
}

/**
 * A text field for templates: `{{variable}}` references are highlighted (unknown ones in red)
 * and typing `{{` opens an autocomplete of upstream outputs with their types. Multi-line prompts
 * are a CodeMirror editor ({@link TemplateCodeEditor}); one-line values (key/value rows, a
 * template-or-selector) keep this light textarea.
 */
export function PromptEditor(props: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  variables: VariableOption[];
  multiline?: boolean;
  placeholder?: string;
  testId?: string;
  /** The id of the field's label (the CodeMirror editor's accessible name). */
  labelId?: string;
}) {
  // A disabled fieldset turns off the textarea; CodeMirror's contenteditable needs telling.
  const readOnly = useEditorStore((state) => state.readOnly);
  if (props.multiline ?? true) {
    return (
      <TemplateCodeEditor
        id={props.id}
        testId={props.testId}
        labelId={props.labelId}
        value={props.value}
        onChange={props.onChange}
        variables={props.variables}
        readOnly={readOnly}
        placeholder={props.placeholder}
      />
    );
  }
  return <TemplateTextarea {...props} multiline={false} />;
}

/** The one-line template field: a textarea over a highlighting backdrop, with its own completion list. */
function TemplateTextarea({
  id,
  value,
  onChange,
  variables,
  multiline = true,
  placeholder,
  testId,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  variables: VariableOption[];
  multiline?: boolean;
  placeholder?: string;
  testId?: string;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);

  const suggestions = useMemo(() => {
    if (!open) return [];
    const needle = open.query.toLowerCase();
    return variables.filter(
      (option) => option.reference.toLowerCase().includes(needle) || option.nodeTitle.toLowerCase().includes(needle),
    );
  }, [open, variables]);

  const parts = useMemo(() => value.split(/(\{\{[^{}]*\}\})/g), [value]);

  const refresh = (text: string, caret: number) => {
    setOpen(openReferenceAt(text, caret));
    setActive(0);
  };

  const insert = (option: VariableOption) => {
    const element = textarea.current;
    if (!element || !open) return;
    const caret = element.selectionStart;
    const after = value.slice(caret).startsWith("}}") ? value.slice(caret + 2) : value.slice(caret);
    const next = `${value.slice(0, open.start)}${option.reference}}}${after}`;
    onChange(next);
    setOpen(null);
    const position = open.start + option.reference.length + 2;
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(position, position);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && suggestions.length > 0) {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setActive((index) => (index + 1) % suggestions.length);
        return;
      }
      if (event.key === "ArrowUp") {
        event.preventDefault();
        setActive((index) => (index - 1 + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        insert(suggestions[Math.min(active, suggestions.length - 1)]);
        return;
      }
    }
    if (event.key === "Escape") setOpen(null);
    if (!multiline && event.key === "Enter") event.preventDefault();
  };

  return (
    <div className={multiline ? "prompt-editor" : "prompt-editor prompt-editor-single"}>
      <div className="prompt-backdrop" ref={backdrop} aria-hidden>
        {parts.map((part, index) =>
          part.startsWith("{{") && part.endsWith("}}") ? (
            <mark
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string, re-split on every change
              key={index}
              className={isKnownReference(part.slice(2, -2), variables) ? "variable-known" : "variable-unknown"}
            >
              {part}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={index}>{part}</span>
          ),
        )}
        {"\u200b"}
      </div>
      <textarea
        id={id}
        ref={textarea}
        className="prompt-input"
        value={value}
        rows={multiline ? 4 : 1}
        placeholder={placeholder}
        spellCheck={false}
        data-testid={testId}
        onChange={(event) => {
          onChange(event.target.value);
          refresh(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onClick={(event) => refresh(value, event.currentTarget.selectionStart)}
        onBlur={() => setTimeout(() => setOpen(null), 150)}
        onScroll={(event) => {
          if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
        }}
      />
      {open && suggestions.length > 0 && (
        <ul className="autocomplete" data-testid="variable-autocomplete">
          {suggestions.slice(0, 30).map((option, index) => (
            <li
              key={option.reference}
              className={index === active ? "autocomplete-active" : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                insert(option);
              }}
            >
              <code>{option.reference}</code>
              <span className="muted">
                {option.nodeTitle} · {option.type}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

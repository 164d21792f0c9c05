"use client";

import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { fieldClassName } from "@/components/ui/input";
import { useEditorStore } from "../../store/editor-store-context";
import type { VariableOption } from "../upstream-variables";
import { TemplateCodeEditor } from "./template-code-editor";
import { isKnownReference, REFERENCE_MARK_CLASS_NAME } from "./template-references";

/**
 * The text metrics the one-line field and its highlighting backdrop share, so each mark sits
 * exactly under its characters: one 18 px line, the same padding and a 1 px border.
 */
const LINE_CLASS_NAME =
  "border px-2 py-1.5 font-mono text-xs leading-[18px] tracking-normal whitespace-pre [overflow-wrap:normal]";

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
export function PromptEditor({
  multiline = true,
  labelId,
  ariaLabel,
  ...field
}: TemplateFieldProps & {
  multiline?: boolean;
  /** The id of the field's label (the CodeMirror editor's accessible name). */
  labelId?: string;
  /** The accessible name of a one-line field that has no label of its own (a key/value row's value). */
  ariaLabel?: string;
}) {
  // A disabled fieldset turns off the textarea; CodeMirror's contenteditable needs telling.
  const readOnly = useEditorStore((state) => state.readOnly);
  if (multiline) return <TemplateCodeEditor {...field} labelId={labelId} readOnly={readOnly} />;
  return <TemplateTextarea {...field} ariaLabel={ariaLabel} />;
}

/** What both template fields take. */
interface TemplateFieldProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  variables: VariableOption[];
  placeholder?: string;
  testId?: string;
}

/** The one-line template field: a textarea over a highlighting backdrop, with its own completion list. */
function TemplateTextarea({
  id,
  value,
  onChange,
  variables,
  placeholder,
  testId,
  ariaLabel,
}: TemplateFieldProps & { ariaLabel?: string }) {
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
    if (event.key === "Enter") event.preventDefault();
  };

  return (
    <div className="relative rounded-md bg-card">
      <div
        className={cn(
          LINE_CLASS_NAME,
          "pointer-events-none absolute inset-0 overflow-hidden border-transparent text-transparent",
        )}
        ref={backdrop}
        aria-hidden
      >
        {parts.map((part, index) =>
          part.startsWith("{{") && part.endsWith("}}") ? (
            <mark
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string, re-split on every change
              key={index}
              className={cn(
                "text-transparent",
                isKnownReference(part.slice(2, -2), variables)
                  ? REFERENCE_MARK_CLASS_NAME.known
                  : REFERENCE_MARK_CLASS_NAME.unknown,
              )}
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
        className={cn(
          fieldClassName,
          LINE_CLASS_NAME,
          "relative block h-8 resize-none overflow-hidden bg-transparent group-data-[invalid=true]/field:border-destructive",
        )}
        value={value}
        rows={1}
        placeholder={placeholder}
        aria-label={ariaLabel}
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
          // A long value scrolls sideways inside the field: the marks behind it follow.
          if (backdrop.current) backdrop.current.scrollLeft = event.currentTarget.scrollLeft;
        }}
      />
      {open && suggestions.length > 0 && (
        <ul
          className="absolute inset-x-0 top-full z-20 m-0 mt-0.5 max-h-56 list-none overflow-auto rounded-md border border-border bg-popover p-1 text-popover-foreground shadow-md"
          data-testid="variable-autocomplete"
        >
          {suggestions.slice(0, 30).map((option, index) => (
            <li
              key={option.reference}
              data-active={index === active || undefined}
              className="flex cursor-pointer justify-between gap-2 rounded-sm px-1.5 py-1 text-xs hover:bg-accent data-[active]:bg-accent data-[active]:text-accent-foreground"
              onMouseDown={(event) => {
                event.preventDefault();
                insert(option);
              }}
            >
              <code>{option.reference}</code>
              <span className="truncate text-muted-foreground">
                {option.nodeTitle} · {option.type}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

"use client";

import { type NodeProps, NodeResizer } from "@xyflow/react";
import { PencilIcon } from "lucide-react";
import { type KeyboardEvent, memo, type ReactNode, useCallback, useState } from "react";
import { cn } from "@/components/ui/cn";
import { NOTE_COLORS, type NoteColor, STICKY_NOTE_TEXT_LIMIT } from "@/lib/workflow/document";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { CanvasNode } from "../store/types";
import { type NoteBlock, type NoteInline, parseNoteMarkdown } from "./note-markdown";

/** Background, border and swatch per colour (tokens in globals.css, light and dark). */
const COLOR_CLASSES: Record<NoteColor, { note: string; swatch: string }> = {
  yellow: { note: "bg-note-yellow/15 border-note-yellow/60", swatch: "bg-note-yellow" },
  blue: { note: "bg-note-blue/15 border-note-blue/60", swatch: "bg-note-blue" },
  green: { note: "bg-note-green/15 border-note-green/60", swatch: "bg-note-green" },
  pink: { note: "bg-note-pink/15 border-note-pink/60", swatch: "bg-note-pink" },
  purple: { note: "bg-note-purple/15 border-note-purple/60", swatch: "bg-note-purple" },
  gray: { note: "bg-note-gray/15 border-note-gray/60", swatch: "bg-note-gray" },
};

function renderInline(nodes: NoteInline[]): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${node.kind}-${index}`;
    switch (node.kind) {
      case "text":
        return node.text;
      case "strong":
        return <strong key={key}>{renderInline(node.children)}</strong>;
      case "emphasis":
        return <em key={key}>{renderInline(node.children)}</em>;
      case "code":
        return (
          <code key={key} className="rounded-xs bg-muted px-0.5">
            {node.text}
          </code>
        );
      case "link":
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="text-primary">
            {renderInline(node.children)}
          </a>
        );
      default:
        return null;
    }
  });
}

function renderBlock(block: NoteBlock, index: number): ReactNode {
  switch (block.kind) {
    case "heading": {
      // Below the page's own headings: a note is part of the canvas, not a section of the page.
      const Heading = block.level === 1 ? "h3" : block.level === 2 ? "h4" : "h5";
      const size = block.level === 1 ? "text-base" : block.level === 2 ? "text-sm" : "text-xs";
      return (
        <Heading key={index} className={cn("m-0 font-semibold", size)}>
          {renderInline(block.children)}
        </Heading>
      );
    }
    case "paragraph":
      return (
        <p key={index} className="m-0">
          {renderInline(block.children)}
        </p>
      );
    case "list": {
      const List = block.ordered ? "ol" : "ul";
      return (
        <List key={index} className={cn("m-0 pl-4", block.ordered ? "list-decimal" : "list-disc")}>
          {block.items.map((item, itemIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity besides their place
            <li key={itemIndex}>{renderInline(item)}</li>
          ))}
        </List>
      );
    }
    case "code":
      return (
        <pre key={index} className="m-0 overflow-auto rounded-sm bg-muted p-1 text-2xs">
          {block.text}
        </pre>
      );
  }
}

/** The note's Markdown as elements (never HTML). */
export function NoteMarkdown({ text }: { text: string }) {
  const blocks = parseNoteMarkdown(text);
  if (blocks.length === 0) return <p className="m-0 text-muted-foreground italic">Double-click to write a note</p>;
  return <>{blocks.map(renderBlock)}</>;
}

/**
 * A sticky note on the canvas: Markdown text, a colour and a size, saved in the document's
 * `notes` (not a workflow node: no handles, and the compiler never sees it). Double-click or the
 * pencil edits it; Escape or leaving the text area ends editing.
 */
export const NoteNode = memo(function NoteNode({ id, data, selected }: NodeProps<CanvasNode>) {
  const store = useEditorStoreApi();
  const readOnly = useEditorStore((state) => state.readOnly);
  const [editing, setEditing] = useState(false);
  const text = typeof data.text === "string" ? data.text : "";
  const color = (NOTE_COLORS as readonly string[]).includes(data.color as string)
    ? (data.color as NoteColor)
    : "yellow";
  const onResizeStart = useCallback(() => store.getState().beginGesture(), [store]);
  const edit = () => {
    if (!readOnly) setEditing(true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      setEditing(false);
    }
  };

  return (
    <div
      className={cn(
        "wf-note flex size-full flex-col rounded-md border text-xs text-foreground shadow-xs",
        COLOR_CLASSES[color].note,
        selected && "ring-2 ring-primary/30",
      )}
      data-testid="note"
      data-note-id={id}
      data-color={color}
      onDoubleClick={edit}
    >
      <NodeResizer isVisible={selected && !readOnly} minWidth={140} minHeight={80} onResizeStart={onResizeStart} />
      {selected && !readOnly && (
        <div className="nodrag flex items-center gap-1 px-2 pt-1.5" data-testid="note-toolbar">
          {NOTE_COLORS.map((option) => (
            <button
              key={option}
              type="button"
              aria-label={`Note colour ${option}`}
              aria-pressed={option === color}
              data-testid={`note-color-${option}`}
              className={cn(
                "size-4 rounded-full border border-border outline-none focus-visible:ring-2 focus-visible:ring-ring",
                COLOR_CLASSES[option].swatch,
                option === color && "ring-2 ring-foreground/60",
              )}
              onClick={() => store.getState().updateNodeConfig(id, { color: option })}
            />
          ))}
          <button
            type="button"
            aria-label="Edit note"
            data-testid="note-edit"
            className="ml-auto inline-flex size-5 items-center justify-center rounded-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            onClick={edit}
          >
            <PencilIcon className="size-3" aria-hidden="true" />
          </button>
        </div>
      )}
      {editing ? (
        <textarea
          // biome-ignore lint/a11y/noAutofocus: editing starts on an explicit double-click or the Edit button
          autoFocus
          aria-label="Note text (Markdown)"
          data-testid="note-text"
          className="nodrag nowheel m-1.5 min-h-0 flex-1 resize-none rounded-sm border border-input bg-card p-1.5 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
          value={text}
          maxLength={STICKY_NOTE_TEXT_LIMIT}
          onChange={(event) =>
            store.getState().updateNodeConfig(id, { text: event.target.value }, { coalesceKey: `note:${id}` })
          }
          onBlur={() => setEditing(false)}
          onKeyDown={onKeyDown}
        />
      ) : (
        <div
          className="nowheel flex min-h-0 flex-1 flex-col gap-1 overflow-auto px-2.5 py-2 leading-snug"
          data-testid="note-body"
        >
          <NoteMarkdown text={text} />
        </div>
      )}
    </div>
  );
});

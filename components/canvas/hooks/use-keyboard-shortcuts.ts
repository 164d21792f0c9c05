"use client";

import { useEffect } from "react";
import { readFragment, writeFragment } from "../clipboard";
import type { EditorStore } from "../store/editor-store";

/** One documented shortcut, shown in the help dialog. */
export interface ShortcutDescription {
  /** Keys as shown to people. */
  keys: string;
  /** What it does. */
  action: string;
}

/** Everything the keyboard does in the editor; the help dialog renders this list. */
export const SHORTCUTS: ShortcutDescription[] = [
  { keys: "Ctrl/⌘ + Z", action: "Undo" },
  { keys: "Ctrl/⌘ + Shift + Z, Ctrl + Y", action: "Redo" },
  { keys: "Delete / Backspace", action: "Delete the selection" },
  { keys: "Ctrl/⌘ + C", action: "Copy the selection (works across workflows)" },
  { keys: "Ctrl/⌘ + X", action: "Cut the selection" },
  { keys: "Ctrl/⌘ + V", action: "Paste" },
  { keys: "Ctrl/⌘ + D", action: "Duplicate the selection" },
  { keys: "Ctrl/⌘ + A", action: "Select all nodes" },
  { keys: "Shift + click, Shift + drag", action: "Add to the selection, box select" },
  { keys: "Shift + L", action: "Auto-layout" },
  { keys: "Ctrl/⌘ + S", action: "Save now" },
  { keys: "Ctrl/⌘ + Enter", action: "Run the workflow" },
  { keys: "Ctrl/⌘ + K", action: "Command palette: find a node, add a node, run an action" },
  { keys: "Right-click", action: "Actions for a node, an edge or the canvas" },
  { keys: "Ctrl/⌘ + =, Ctrl/⌘ + -", action: "Zoom in, zoom out" },
  { keys: "Shift + 1, Ctrl/⌘ + 0", action: "Fit the whole workflow in view" },
  { keys: "Escape", action: "Clear the selection" },
  { keys: "?", action: "Show this help" },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Editor actions the shortcuts call that live outside the store. */
export interface ShortcutHandlers {
  /** Runs auto-layout. */
  layout(): void;
  /** Saves now. */
  save(): void;
  /** Opens the run dialog. */
  run(): void;
}

/** Global keyboard shortcuts of the editor; ignored while typing in a field. */
export function useKeyboardShortcuts(store: EditorStore, handlers: ShortcutHandlers): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const modifier = event.ctrlKey || event.metaKey;
      if (modifier && event.key.toLowerCase() === "s") {
        event.preventDefault();
        handlers.save();
        return;
      }
      if (isTyping(event.target)) return;
      // A modal dialog (Radix: role=dialog, data-state=open) owns the keyboard.
      if (document.querySelector('dialog[open], [role="dialog"][data-state="open"], [role="alertdialog"]')) return;
      const state = store.getState();
      const key = event.key.toLowerCase();
      // A viewer may select, copy and open help; nothing that changes, runs or lays out the workflow.
      const changes =
        (modifier && ["z", "y", "x", "v", "d", "enter"].includes(key)) ||
        (!modifier && (event.key === "Delete" || event.key === "Backspace" || (event.shiftKey && key === "l")));
      if (changes && state.readOnly) return;
      if (modifier && key === "z") {
        event.preventDefault();
        if (event.shiftKey) state.redo();
        else state.undo();
      } else if (modifier && key === "y") {
        event.preventDefault();
        state.redo();
      } else if (modifier && (key === "c" || key === "x")) {
        const fragment = state.copySelection();
        if (!fragment) return;
        event.preventDefault();
        void writeFragment(fragment);
        if (key === "x") state.removeSelection();
      } else if (modifier && key === "v") {
        event.preventDefault();
        void readFragment().then((fragment) => {
          if (fragment) store.getState().pasteFragment(fragment);
        });
      } else if (modifier && key === "d") {
        event.preventDefault();
        state.duplicateSelection();
      } else if (modifier && key === "a") {
        event.preventDefault();
        state.selectNodes(state.nodes.map((node) => node.id));
      } else if (modifier && key === "enter") {
        event.preventDefault();
        handlers.run();
      } else if (!modifier && (event.key === "Delete" || event.key === "Backspace")) {
        event.preventDefault();
        state.removeSelection();
      } else if (!modifier && event.shiftKey && key === "l") {
        event.preventDefault();
        handlers.layout();
      } else if (event.key === "?") {
        event.preventDefault();
        state.setDialog("shortcuts");
      } else if (event.key === "Escape") {
        state.clearSelection();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [store, handlers]);
}

import { isGraphFragment } from "./store/graph-helpers";
import type { GraphFragment } from "./store/types";

/** localStorage key mirroring the clipboard, so paste works without clipboard-read permission. */
const CLIPBOARD_STORAGE_KEY = "trellis:clipboard";

/** Writes a fragment to the system clipboard (as JSON text) and to localStorage. */
export async function writeFragment(fragment: GraphFragment): Promise<void> {
  const text = JSON.stringify(fragment);
  try {
    localStorage.setItem(CLIPBOARD_STORAGE_KEY, text);
  } catch {
    // Storage full or disabled: the system clipboard alone still works.
  }
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (e.g. headless or insecure origin): localStorage has it.
  }
}

function parseFragment(text: string | null | undefined): GraphFragment | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isGraphFragment(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Reads a fragment: the system clipboard first (so copies from another browser window work),
 * then the localStorage mirror (same origin, so copies from another workflow tab work).
 */
export async function readFragment(): Promise<GraphFragment | null> {
  try {
    const fromClipboard = parseFragment(await navigator.clipboard.readText());
    if (fromClipboard) return fromClipboard;
  } catch {
    // Permission denied: fall through to the mirror.
  }
  try {
    return parseFragment(localStorage.getItem(CLIPBOARD_STORAGE_KEY));
  } catch {
    return null;
  }
}

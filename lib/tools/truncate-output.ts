import "server-only";
/** Default cap on what a tool returns to the model and the run record: 64 KiB of UTF-8. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/** A tool output after the size cap was applied. */
export interface TruncatedOutput {
  /** The content, or a string prefix with a marker when it was cut. */
  content: unknown;
  /** True when the content was cut. */
  truncated: boolean;
  /** Size in bytes of the serialized content before cutting. */
  size: number;
}

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString("utf8");
}

/** The marker appended to cut output. Visible to the model so it never mistakes a prefix for the whole. */
export function truncationMarker(originalBytes: number, keptBytes: number): string {
  return `\n…[output truncated: ${originalBytes} bytes, showing the first ${keptBytes} bytes]`;
}

/**
 * Applies the output cap. Strings are cut directly; other values are serialized to JSON first and,
 * when too large, replaced by the cut JSON text plus the marker (never silently dropped).
 */
export function truncateOutput(content: unknown, maxBytes: number): TruncatedOutput {
  const serialized = typeof content === "string" ? content : (JSON.stringify(content) ?? "null");
  const size = Buffer.byteLength(serialized, "utf8");
  if (size <= maxBytes) return { content, truncated: false, size };
  const kept = truncateUtf8(serialized, maxBytes);
  return {
    content: kept + truncationMarker(size, Buffer.byteLength(kept, "utf8")),
    truncated: true,
    size,
  };
}

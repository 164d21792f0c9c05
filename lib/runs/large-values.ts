/**
 * Large node-run payloads in the run detail API. A run whose nodes produced tens of MB (a 10 MB
 * HTTP body, a big code result) must not make `GET /api/runs/:id` answer tens of MB: each of a
 * node run's `inputs`, `processData` and `outputs` above the page's byte budget is sent as a
 * {@link LargeValueRef} (its size and a text preview), and the whole node run is one request away
 * (`GET /api/runs/:runId/node-runs/:nodeRunId`). Nothing is dropped: the stored row is whole.
 */

/** The node-run fields that may be sent as references. */
export const LARGE_VALUE_FIELDS = ["inputs", "processData", "outputs"] as const;

/** Which field a reference stands for. */
export type LargeValueField = (typeof LARGE_VALUE_FIELDS)[number];

/** Default byte budget of one field in a run detail page (serialized JSON). */
export const DEFAULT_MAX_VALUE_BYTES = 256 * 1024;

/** Characters of the serialized value shown as a preview. */
export const LARGE_VALUE_PREVIEW_CHARS = 2_000;

/** Stands for a value left out of a run detail page because of its size. */
export interface LargeValueRef {
  $trellisLargeValue: true;
  /** Which field of the node run. */
  field: LargeValueField;
  /** Size of the serialized JSON value in bytes (UTF-8). */
  bytes: number;
  /** The start of the serialized value. */
  preview: string;
  /** Where the whole node run is served. */
  href: string;
}

/** Whether a value is a {@link LargeValueRef}. */
export function isLargeValueRef(value: unknown): value is LargeValueRef {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { $trellisLargeValue?: unknown }).$trellisLargeValue === true
  );
}

/** The href of one node run in full. */
export function nodeRunHref(runId: string, nodeRunId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/node-runs/${encodeURIComponent(nodeRunId)}`;
}

/** A node run with every field over `maxBytes` replaced by a reference (the same object when none is). */
export function withLargeValueRefs<T extends { id: string } & Partial<Record<LargeValueField, unknown>>>(
  runId: string,
  nodeRun: T,
  maxBytes: number,
): T {
  let copy: T | undefined;
  for (const field of LARGE_VALUE_FIELDS) {
    const value = nodeRun[field];
    if (value === null || value === undefined) continue;
    const text = JSON.stringify(value);
    const bytes = utf8Length(text);
    if (bytes <= maxBytes) continue;
    copy ??= { ...nodeRun };
    const ref: LargeValueRef = {
      $trellisLargeValue: true,
      field,
      bytes,
      preview: text.slice(0, LARGE_VALUE_PREVIEW_CHARS),
      href: nodeRunHref(runId, nodeRun.id),
    };
    (copy as Record<string, unknown>)[field] = ref;
  }
  return copy ?? nodeRun;
}

function utf8Length(text: string): number {
  // Counting avoids allocating a second copy of a many-MB string (TextEncoder would).
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

"use client";

import { memo } from "react";

/** Levels opened by default; deeper objects start collapsed. */
const OPEN_DEPTH = 2;
/** Children shown before "… n more". */
const MAX_CHILDREN = 200;

/**
 * A string that holds a JSON object or array (tool results, HTTP bodies, model JSON replies):
 * shown as a tree rather than as one escaped line.
 */
export function parseJsonText(value: string): object | null {
  const trimmed = value.trim();
  if (!(trimmed.startsWith("{") && trimmed.endsWith("}")) && !(trimmed.startsWith("[") && trimmed.endsWith("]"))) {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === "object" && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="text-muted-foreground">null</span>;
  if (typeof value === "string") {
    // Strings are text: no quotes, no escaped newlines or quotes.
    return (
      <span data-json-type="string">
        {value === "" ? <span className="text-muted-foreground">(empty)</span> : value}
      </span>
    );
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return <span data-json-type={typeof value}>{String(value)}</span>;
  }
  return <span className="text-muted-foreground">{String(value)}</span>;
}

function summaryOf(value: object): string {
  return Array.isArray(value)
    ? `${value.length} item${value.length === 1 ? "" : "s"}`
    : `${Object.keys(value).length} field${Object.keys(value).length === 1 ? "" : "s"}`;
}

const TreeNode = memo(function TreeNode({ label, value, depth }: { label?: string; value: unknown; depth: number }) {
  const structured = typeof value === "string" ? parseJsonText(value) : null;
  const inner = structured ?? value;
  const labelView = label !== undefined && <span className="font-medium text-muted-foreground">{label}: </span>;
  if (typeof inner !== "object" || inner === null) {
    return (
      <div data-json-key={label}>
        {labelView}
        <Scalar value={inner} />
      </div>
    );
  }
  const entries = Array.isArray(inner)
    ? inner.map((item, index) => [String(index), item] as const)
    : Object.entries(inner as Record<string, unknown>);
  return (
    <details open={depth < OPEN_DEPTH} data-json-key={label}>
      <summary className="cursor-pointer select-none">
        {labelView}
        <span className="text-muted-foreground">
          {Array.isArray(inner) ? "[" : "{"} {summaryOf(inner)} {Array.isArray(inner) ? "]" : "}"}
          {structured !== null && " · JSON text"}
        </span>
      </summary>
      <div className="border-l border-border pl-3.5">
        {entries.slice(0, MAX_CHILDREN).map(([key, child]) => (
          <TreeNode key={key} label={key} value={child} depth={depth + 1} />
        ))}
        {entries.length > MAX_CHILDREN && (
          <div className="text-muted-foreground">… {entries.length - MAX_CHILDREN} more</div>
        )}
      </div>
    </details>
  );
});

/**
 * JSON as a collapsible tree (objects and arrays fold; strings are shown as text, and a string
 * holding JSON is unfolded too). `—` for no value.
 */
export function JsonTree({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <div
      className="max-h-64 min-w-0 overflow-auto rounded-md border border-border bg-muted/50 p-2 font-mono text-xs break-words whitespace-pre-wrap"
      data-testid={testId}
    >
      {value === undefined ? "—" : <TreeNode value={value} depth={0} />}
    </div>
  );
}

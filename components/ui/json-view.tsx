/** Pretty-printed JSON in a scrollable block; strings are shown as-is. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      className="my-1 max-h-[260px] overflow-auto rounded-md border border-border bg-muted p-2 font-mono text-xs break-words whitespace-pre-wrap"
      data-testid={testId}
    >
      {text === undefined ? "—" : text}
    </pre>
  );
}

/** Pretty-printed JSON in a scrollable block; strings are shown as-is. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="json-view" data-testid={testId}>
      {text === undefined ? "—" : text}
    </pre>
  );
}

import { CodeBlock } from "./code-block";

/** Pretty-printed JSON in a scrollable block; strings are shown as-is. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <CodeBlock className="my-1 max-h-64" data-testid={testId}>
      {text === undefined ? "—" : text}
    </CodeBlock>
  );
}

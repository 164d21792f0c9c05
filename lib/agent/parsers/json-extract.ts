import "server-only";

const FENCE = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/;

/** Removes `<think>…</think>` blocks (and a dangling opening tag) that reasoning models prepend. */
export function stripThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/<\/?think>/gi, "")
    .trim();
}

/** The content of the first ``` fence, or undefined. */
export function fencedContent(text: string): string | undefined {
  const match = FENCE.exec(text);
  return match ? match[1].trim() : undefined;
}

/** Index just past the balanced JSON value starting at `start` (`{` or `[`), honouring strings; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") stack.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * Finds JSON in model text: the whole text, a fenced block, or the first balanced object/array.
 * Returns undefined when none parses. Models wrap JSON in prose and fences often enough that
 * strict parsing alone would fail on well-meant answers.
 */
export function extractJson(text: string): { value: unknown } | undefined {
  const candidates: string[] = [];
  const trimmed = text.trim();
  candidates.push(trimmed);
  const fenced = fencedContent(trimmed);
  if (fenced !== undefined) candidates.push(fenced);
  for (const source of [fenced, trimmed]) {
    if (source === undefined) continue;
    const start = source.search(/[[{]/);
    if (start >= 0) {
      const end = balancedEnd(source, start);
      if (end > 0) candidates.push(source.slice(start, end));
    }
  }
  for (const candidate of candidates) {
    try {
      return { value: JSON.parse(candidate) };
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

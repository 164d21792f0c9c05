import "server-only";
import { extractJson, fencedContent, stripThinking } from "./json-extract";

/** Markers that end a model turn in ReAct: what follows is for the system to fill in. */
export const OBSERVATION_STOP_SEQUENCES = ["\nObservation:", "\nObservation：", "\n观察："] as const;

/** A parsed ReAct turn. */
export type ReactParse =
  | { type: "action"; thought: string; action: string; input: unknown; rawInput: string }
  | { type: "final"; thought: string; answer: string; parseFailed: boolean };

type MarkerKind = "thought" | "action" | "actionInput" | "final" | "observation";

const MARKER_KINDS: Record<string, MarkerKind> = {
  thought: "thought",
  思考: "thought",
  action: "action",
  行动: "action",
  "action input": "actionInput",
  行动输入: "actionInput",
  "final answer": "final",
  最终答案: "final",
  observation: "observation",
  观察: "observation",
};

// Line-start markers; longer alternatives first so "Action Input" never matches as "Action".
// Markdown emphasis (**Action:**) is tolerated because some models bold the labels.
const LINE_MARKER =
  /(^|\n)[ \t]*(?:\*\*)?(Thought|Action[ _]Input|Action|Final[ _]Answer|Observation|思考|行动输入|行动|最终答案|观察)(?:\*\*)?[ \t]*[:：](?:\*\*)?/gi;
// Final Answer is also accepted mid-line ("I know now. Final Answer: …").
const INLINE_FINAL = /(Final[ _]Answer|最终答案)[ \t]*[:：]/i;

interface Segment {
  kind: MarkerKind;
  start: number;
  content: string;
}

function segmentsOf(text: string): { preamble: string; segments: Segment[] } {
  const hits: { kind: MarkerKind; start: number; contentStart: number }[] = [];
  for (const match of text.matchAll(LINE_MARKER)) {
    const label = match[2].toLowerCase().replace("_", " ");
    const start = (match.index ?? 0) + match[1].length;
    hits.push({ kind: MARKER_KINDS[label], start, contentStart: (match.index ?? 0) + match[0].length });
  }
  if (!hits.some((hit) => hit.kind === "final")) {
    const inline = INLINE_FINAL.exec(text);
    if (inline) {
      hits.push({ kind: "final", start: inline.index, contentStart: inline.index + inline[0].length });
      hits.sort((a, b) => a.start - b.start);
    }
  }
  const segments = hits.map((hit, position) => {
    const end = position + 1 < hits.length ? hits[position + 1].start : text.length;
    return { kind: hit.kind, start: hit.start, content: text.slice(hit.contentStart, end).trim() };
  });
  return { preamble: hits.length > 0 ? text.slice(0, hits[0].start).trim() : text.trim(), segments };
}

/**
 * Cuts a turn at the first Observation marker. Used when the provider ignores stop sequences:
 * anything after the marker is the model inventing a tool result.
 */
export function cutAtObservation(text: string): string {
  const match = /(^|\n)[ \t]*(?:\*\*)?(Observation|观察)(?:\*\*)?[ \t]*[:：]/i.exec(text);
  return match ? text.slice(0, match.index) : text;
}

function parseActionInput(raw: string): unknown {
  const cleaned = raw.trim();
  if (cleaned === "") return {};
  const json = extractJson(cleaned);
  return json ? json.value : { input: stripQuotes(cleaned) };
}

function stripQuotes(text: string): string {
  return text.replace(/^[`"']+|[`"']+$/g, "").trim();
}

/** `search({"q": 1})` style: a name directly followed by parenthesised JSON. */
function splitInlineCall(action: string): { name: string; input?: string } {
  const match = /^([\w.-]+)\s*\(([\s\S]*)\)\s*$/.exec(action);
  return match ? { name: match[1], input: match[2] } : { name: action };
}

function parseJsonBlob(text: string): ReactParse | undefined {
  const fenced = fencedContent(text);
  if (fenced === undefined) return undefined;
  const json = extractJson(fenced);
  if (!json || typeof json.value !== "object" || json.value === null) return undefined;
  const blob = json.value as Record<string, unknown>;
  if (typeof blob.action !== "string") return undefined;
  const thought = text
    .slice(0, text.indexOf("```"))
    .replace(/^(Thought|思考)\s*[:：]/i, "")
    .trim();
  const input = blob.action_input ?? blob.actionInput ?? {};
  if (/^(final[ _]answer|最终答案)$/i.test(blob.action.trim())) {
    return {
      type: "final",
      thought,
      answer: typeof input === "string" ? input : JSON.stringify(input),
      parseFailed: false,
    };
  }
  const parsedInput = typeof input === "string" ? parseActionInput(input) : input;
  return { type: "action", thought, action: blob.action.trim(), input: parsedInput, rawInput: JSON.stringify(input) };
}

/**
 * Tolerant ReAct parser. Accepts English and Chinese markers, a JSON blob
 * (`{"action", "action_input"}`) in a code fence, and `name({...})` actions; strips `<think>`
 * blocks; ignores anything after an Observation marker; falls back to `{"input": raw}` when the
 * action input is not JSON; and when nothing parses, returns the text as a final answer flagged
 * `parseFailed` rather than losing it.
 */
export function parseReactOutput(text: string): ReactParse {
  const cleaned = cutAtObservation(stripThinking(text)).trim();
  const { preamble, segments } = segmentsOf(cleaned);
  const thought = segments.find((segment) => segment.kind === "thought")?.content ?? preamble;
  const firstDecision = segments.find((segment) => segment.kind === "final" || segment.kind === "action");

  if (firstDecision?.kind === "final") {
    return {
      type: "final",
      thought: thought === firstDecision.content ? "" : thought,
      answer: firstDecision.content,
      parseFailed: false,
    };
  }
  if (firstDecision?.kind === "action") {
    const blob = fencedContent(firstDecision.content) !== undefined ? parseJsonBlob(firstDecision.content) : undefined;
    if (blob) return { ...blob, thought: blob.thought || thought };
    const inputSegment = segments.find(
      (segment) => segment.kind === "actionInput" && segment.start > firstDecision.start,
    );
    const firstLine = firstDecision.content.split("\n")[0];
    const inline = splitInlineCall(stripQuotes(firstLine));
    const rawInput = inputSegment?.content ?? inline.input ?? firstDecision.content.split("\n").slice(1).join("\n");
    if (inline.name) {
      return {
        type: "action",
        thought,
        action: inline.name,
        input: parseActionInput(rawInput),
        rawInput: rawInput.trim(),
      };
    }
  }
  const blob = parseJsonBlob(cleaned);
  if (blob) return blob;
  return { type: "final", thought: "", answer: cleaned || text.trim(), parseFailed: true };
}

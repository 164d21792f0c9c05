// The evidence check (seed 004): every explanation the answer gives about a subject (a ticket id)
// must quote a snippet the evidence tool actually returned for that subject. An explicit gap
// statement ("no explanation found") is accepted only when the tool was asked about the subject
// and returned nothing for it; an explanation borrowed from another subject's snippet fails.
import type { CheckOf } from "../model/check-spec";
import type { CheckResult } from "./check-result";
import { asText, outputValue } from "./output-checks";
import type { RecordedToolCall, TrialRecord } from "./trial-record";

/** A quotable text the tool returned, with the subjects it was returned for. */
export interface EvidenceSnippet {
  /** The snippet's own id (`id` field), when it has one. */
  id: string | null;
  /** The snippet text. */
  text: string;
  /** Subjects the result tied it to. */
  subjects: Set<string>;
}

/** A stretch of the answer about one subject. */
export interface EvidenceClaim {
  subject: string;
  text: string;
}

function subjectsIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))].map((match) => match[0]);
}

/**
 * Snippets in one tool result: every object with a string `snippetField`, tied to the subjects in
 * its other fields and in its ancestors' fields (`{ ticket_id, notes: [{ ticket_ids, excerpt }] }`).
 * A result that is not JSON is one snippet tied to the subjects it mentions.
 */
export function snippetsOf(call: RecordedToolCall, snippetField: string, subjectPattern: RegExp): EvidenceSnippet[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.result);
  } catch {
    return call.result.trim()
      ? [{ id: null, text: call.result, subjects: new Set(subjectsIn(call.result, subjectPattern)) }]
      : [];
  }
  const found: EvidenceSnippet[] = [];
  const walk = (value: unknown, inherited: Set<string>) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, inherited);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    const own = new Set(inherited);
    for (const [key, field] of Object.entries(record)) {
      // The snippet's own id (MN-142) is not a subject even when it looks like one.
      if (key === snippetField || key === "id") continue;
      if (typeof field === "string") for (const subject of subjectsIn(field, subjectPattern)) own.add(subject);
      if (Array.isArray(field))
        for (const item of field)
          if (typeof item === "string") for (const subject of subjectsIn(item, subjectPattern)) own.add(subject);
    }
    const text = record[snippetField];
    if (typeof text === "string" && text.trim())
      found.push({ id: typeof record.id === "string" ? record.id : null, text, subjects: own });
    for (const [key, field] of Object.entries(record)) if (key !== snippetField) walk(field, own);
  };
  walk(parsed, new Set());
  return found;
}

/**
 * Splits an answer into claims: lines, then sentences; a sentence names its subject or continues
 * the previous sentence's subject on the same line. A stretch mentioning several subjects is
 * about the first one; the text after that mention is what it says about it.
 */
export function claimsOf(answer: string, subjectPattern: RegExp): EvidenceClaim[] {
  const claims: EvidenceClaim[] = [];
  for (const line of answer.split(/\r?\n/)) {
    let current = null as EvidenceClaim | null;
    for (const sentence of line.split(/(?<=[.!?])\s+(?=[A-Z"“(])/)) {
      const subject = subjectsIn(sentence, subjectPattern)[0];
      if (subject && subject !== current?.subject) {
        current = { subject, text: sentence };
        claims.push(current);
      } else if (current) current.text += ` ${sentence}`;
    }
  }
  return claims;
}

/** Lowercase words (letters and digits), for quote matching that ignores punctuation and case. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/** Spans quoted with "…", “…” or ‘…’ of three words or more. */
function quotedSpans(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"|“([^”]+)”|‘([^’]+)’/g)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? "")
    .filter((span) => words(span).length >= 3);
}

function containsRun(haystack: string[], needle: string[]): boolean {
  if (!needle.length || needle.length > haystack.length) return false;
  const joined = ` ${haystack.join(" ")} `;
  return joined.includes(` ${needle.join(" ")} `);
}

/** Whether the claim quotes the snippet: a quoted span inside it, or `minWords` words in a row shared with it. */
export function quotes(claim: string, snippet: string, minWords: number): boolean {
  const snippetWords = words(snippet);
  if (quotedSpans(claim).some((span) => containsRun(snippetWords, words(span)))) return true;
  const claimWords = words(claim);
  for (let start = 0; start + minWords <= claimWords.length; start += 1)
    if (containsRun(snippetWords, claimWords.slice(start, start + minWords))) return true;
  return false;
}

function label(snippet: EvidenceSnippet): string {
  return snippet.id ?? `"${snippet.text.slice(0, 40)}…"`;
}

/** Runs the evidence check on a trial. */
export function checkEvidence(check: CheckOf<"evidence">, record: TrialRecord): CheckResult {
  const result = (passed: boolean, reason: string): CheckResult => ({
    name: check.name,
    kind: check.kind,
    passed,
    reason,
  });
  const read = outputValue(record.outputs, check.field);
  if (!read.found) return result(false, `The run has no ${check.field ? `"${check.field}"` : "output"}.`);
  const answer = asText(read.value);
  const subjectPattern = new RegExp(check.subjectPattern);
  const gap = new RegExp(check.gapPattern, "i");
  const explains = new RegExp(check.claimPattern, "i");
  const calls = record.toolCalls.filter((call) => call.tool === check.tool && call.ok);
  const snippets = calls.flatMap((call) => snippetsOf(call, check.snippetField, subjectPattern));
  const asked = new Set(
    calls.flatMap((call) => subjectsIn(`${JSON.stringify(call.arguments ?? null)} ${call.result}`, subjectPattern)),
  );

  const failures: string[] = [];
  const accepted: string[] = [];
  const mentioned = new Set(subjectsIn(answer, subjectPattern));
  for (const subject of check.requiredSubjects)
    if (!mentioned.has(subject)) failures.push(`${subject} is not in the answer`);

  for (const claim of claimsOf(answer, subjectPattern)) {
    const said = claim.text.slice(claim.text.indexOf(claim.subject) + claim.subject.length);
    const own = snippets.filter((snippet) => snippet.subjects.has(claim.subject));
    if (gap.test(said)) {
      if (!asked.has(claim.subject))
        failures.push(`${claim.subject}: a gap is stated, but ${check.tool} was never asked about it`);
      else if (own.length)
        failures.push(
          `${claim.subject}: a gap is stated, but ${check.tool} returned ${own.map(label).join(", ")} for it`,
        );
      else accepted.push(`${claim.subject}: honest gap`);
      continue;
    }
    // What remains once other subjects and list punctuation are removed: nothing means a mere listing.
    const content = said.replace(new RegExp(subjectPattern.source, "g"), " ").replace(/[\s,;.&]|and/g, "");
    if (!content || !explains.test(said)) continue;
    const cited = own.find((snippet) => quotes(said, snippet.text, check.minQuoteWords));
    if (cited) {
      accepted.push(`${claim.subject}: quotes ${label(cited)}`);
      continue;
    }
    const borrowed = snippets.find(
      (snippet) => !snippet.subjects.has(claim.subject) && quotes(said, snippet.text, check.minQuoteWords),
    );
    if (borrowed)
      failures.push(
        `${claim.subject}: the explanation is borrowed from ${label(borrowed)}, returned for ${[...borrowed.subjects].join(", ") || "another subject"}`,
      );
    else
      failures.push(
        `${claim.subject}: the explanation quotes nothing ${check.tool} returned for it${calls.length ? "" : ` (${check.tool} was never called)`}`,
      );
  }
  if (failures.length) return result(false, `${failures.join("; ")}.`);
  return result(
    true,
    accepted.length ? `${accepted.join("; ")}.` : "The answer makes no explanation that needs evidence.",
  );
}

// How a history search's matched passage travels from the database to the page: plain text with
// two control characters around each match. The page splits on them and renders <mark> elements
// as React nodes, so nothing from a run is ever parsed as HTML. Isomorphic.

/** Starts a match inside a snippet. */
export const MATCH_START = "\u0002";
/** Ends a match inside a snippet. */
export const MATCH_END = "\u0003";

/** One piece of a snippet: plain text, or a matched term. */
export interface SnippetPart {
  /** The text of the piece. */
  text: string;
  /** True for a matched term (shown highlighted). */
  match: boolean;
}

/** Splits a snippet into plain and matched pieces (an unbalanced marker ends the match at the text's end). */
export function splitSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let text = "";
  for (const character of snippet) {
    if (character === MATCH_START || character === MATCH_END) {
      if (text) parts.push({ text, match });
      text = "";
      match = character === MATCH_START;
      continue;
    }
    text += character;
  }
  if (text) parts.push({ text, match });
  return parts;
}

/**
 * The terms of a search box: words, or "quoted phrases", each of which must occur (AND). Empty
 * when nothing searchable is left.
 */
export function parseSearchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const found of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are dropped from search terms
    const term = (found[1] ?? found[2] ?? "").replace(/[\u0000-\u001f"]/g, " ").trim();
    if (term) terms.push(term);
  }
  return terms.slice(0, 16);
}

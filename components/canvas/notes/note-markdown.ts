/**
 * The small Markdown subset sticky notes render: headings (`#`–`###`), paragraphs, `-`/`*` and
 * `1.` lists, fenced code, `**bold**`, `*italic*`, `` `code` `` and `[links](https://…)`.
 * It parses to plain data that React renders as elements, so raw HTML in a note is only ever
 * text (no `dangerouslySetInnerHTML`), and a link is kept only for http(s) and mailto URLs.
 */

/** An inline run of text. */
export type NoteInline =
  | { kind: "text"; text: string }
  | { kind: "strong"; children: NoteInline[] }
  | { kind: "emphasis"; children: NoteInline[] }
  | { kind: "code"; text: string }
  | { kind: "link"; href: string; children: NoteInline[] };

/** A block of a note. */
export type NoteBlock =
  | { kind: "heading"; level: 1 | 2 | 3; children: NoteInline[] }
  | { kind: "paragraph"; children: NoteInline[] }
  | { kind: "list"; ordered: boolean; items: NoteInline[][] }
  | { kind: "code"; text: string };

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

/** Parses inline markup; anything unmatched stays literal text. */
export function parseInline(text: string): NoteInline[] {
  const result: NoteInline[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer) result.push({ kind: "text", text: buffer });
    buffer = "";
  };
  let index = 0;
  while (index < text.length) {
    const rest = text.slice(index);
    const code = /^`([^`]+)`/.exec(rest);
    const strong = /^\*\*(.+?)\*\*/.exec(rest);
    const emphasis = /^\*([^*\s](?:[^*]*[^*\s])?)\*/.exec(rest);
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
    if (code) {
      flush();
      result.push({ kind: "code", text: code[1] });
      index += code[0].length;
    } else if (strong) {
      flush();
      result.push({ kind: "strong", children: parseInline(strong[1]) });
      index += strong[0].length;
    } else if (emphasis) {
      flush();
      result.push({ kind: "emphasis", children: parseInline(emphasis[1]) });
      index += emphasis[0].length;
    } else if (link && SAFE_URL.test(link[2])) {
      flush();
      result.push({ kind: "link", href: link[2], children: parseInline(link[1]) });
      index += link[0].length;
    } else {
      buffer += text[index];
      index += 1;
    }
  }
  flush();
  return result;
}

/** Parses a note into blocks. */
export function parseNoteMarkdown(source: string): NoteBlock[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: NoteBlock[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", children: parseInline(paragraph.join(" ")) });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (/^```/.test(line.trim())) {
      endParagraph();
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !/^```/.test(lines[index].trim())) code.push(lines[index++]);
      blocks.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: "heading", level: heading[1].length as 1 | 2 | 3, children: parseInline(heading[2].trim()) });
      continue;
    }
    const item = /^\s*(?:([-*])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      endParagraph();
      const ordered = item[2] !== undefined;
      const last = blocks.at(-1);
      const entry = parseInline(item[3]);
      if (last?.kind === "list" && last.ordered === ordered) last.items.push(entry);
      else blocks.push({ kind: "list", ordered, items: [entry] });
      continue;
    }
    if (line.trim() === "") {
      endParagraph();
      continue;
    }
    paragraph.push(line.trim());
  }
  endParagraph();
  return blocks;
}

/**
 * What an HTTP node's card shows of its URL: the host when the URL parses, else the text before
 * the path (a URL built from a template, e.g. `{{start.base}}/items`, is shown as written).
 */
export function hostOf(url: string): string {
  const trimmed = url.trim();
  if (trimmed === "") return "";
  if (!trimmed.includes("{{")) {
    try {
      return new URL(trimmed).host;
    } catch {
      // Not absolute yet (the user is typing): fall through to the raw text.
    }
  }
  const withoutScheme = trimmed.replace(/^[a-z]+:\/\//i, "");
  const host = withoutScheme.split("/")[0] ?? "";
  return host.length > 40 ? `${host.slice(0, 39)}…` : host;
}

/** Width units a zoomed-out title may use: about what fits a card's header beside the icon. */
const SHORT_TITLE_UNITS = 22;

/**
 * The title a card shows zoomed out, cut to fit with "…". Wide characters (CJK, emoji) count
 * twice. Why not CSS ellipsis: it needs `overflow: hidden`, and a clip on each of 500 titles was
 * a fifth of the browser's per-frame compositing work while dragging.
 */
export function shortTitle(title: string, units = SHORT_TITLE_UNITS): string {
  const characters = [...title];
  const widths = characters.map((character) => ((character.codePointAt(0) ?? 0) >= 0x2e80 ? 2 : 1));
  if (widths.reduce((sum, width) => sum + width, 0) <= units) return title;
  // Cut to leave one unit for the ellipsis.
  let used = 0;
  let cut = 0;
  while (cut < characters.length && used + widths[cut] <= units - 1) used += widths[cut++];
  return `${characters.slice(0, cut).join("").trimEnd()}…`;
}

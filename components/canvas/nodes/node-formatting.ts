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

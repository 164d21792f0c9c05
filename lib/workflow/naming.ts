/**
 * Names and URL slugs of workflows. Isomorphic so the editor can show the slug a name will get
 * and the server can assign it with the same rules.
 */

/** Longest slug produced from a name. */
const MAX_SLUG_LENGTH = 60;

/** The URL name for a workflow name: lowercase ASCII letters, digits and single dashes. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
  return slug || "workflow";
}

/** `base`, or `base-2`, `base-3`… : the first one not in `taken`. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base}-${suffix}`)) return `${base}-${suffix}`;
}

/**
 * `name`, or `name (2)`, `name (3)`… : the first one not in `taken` (compared case-insensitively,
 * so an import never creates a second "Ticket triage"). A name that already ends in ` (n)` counts
 * on from its base.
 */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const lowered = new Set([...taken].map((existing) => existing.trim().toLowerCase()));
  const trimmed = name.trim();
  if (!lowered.has(trimmed.toLowerCase())) return trimmed;
  const base = trimmed.replace(/ \(\d+\)$/, "");
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base} (${suffix})`;
    if (!lowered.has(candidate.toLowerCase())) return candidate;
  }
}

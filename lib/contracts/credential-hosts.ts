import { z } from "zod";

/**
 * Where a stored credential may be sent (like n8n's "allowed domains"), isomorphic: the settings
 * form, the API schema and the HTTP node's check share it. An entry is one of
 * - a host, optionally with a port: `api.example.com`, `127.0.0.1:8080`, `[::1]:8080`;
 * - a wildcard for subdomains: `*.example.com` (any subdomain, not `example.com` itself);
 * - a URL prefix: `https://api.example.com/v1/` (same scheme, host and port, and a path under it).
 * A host entry without a port allows every port and both http and https.
 */

/** A parsed entry of an allowed-hosts list. */
export type HostPattern =
  | { kind: "host"; host: string; port?: string; wildcard: boolean }
  | { kind: "prefix"; origin: string; path: string };

/** Parses one entry, or returns the reason it is not one. */
export function parseHostPattern(text: string): HostPattern | { error: string } {
  const entry = text.trim();
  if (entry === "") return { error: "is empty" };
  if (entry.includes("://")) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { error: `"${entry}" is not a URL` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { error: `"${entry}" must be http or https` };
    if (url.search || url.hash || url.username || url.password)
      return { error: `"${entry}" may not have a query, fragment or user` };
    return { kind: "prefix", origin: url.origin, path: url.pathname };
  }
  const wildcard = entry.startsWith("*.");
  const rest = wildcard ? entry.slice(2) : entry;
  if (/[/?#@*\s]/.test(rest)) return { error: `"${entry}" is not a host (use https://… for a URL prefix)` };
  let url: URL;
  try {
    url = new URL(`http://${rest}`);
  } catch {
    return { error: `"${entry}" is not a host` };
  }
  if (url.hostname === "") return { error: `"${entry}" is not a host` };
  // `new URL` drops a port equal to the scheme default: keep what was written.
  const port = /:(\d+)$/.exec(rest)?.[1];
  return { kind: "host", host: url.hostname, ...(port ? { port } : {}), wildcard };
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function matches(pattern: HostPattern, url: URL): boolean {
  if (pattern.kind === "prefix") {
    if (url.origin !== pattern.origin) return false;
    if (pattern.path === "/" || url.pathname === pattern.path) return true;
    // A prefix ends at a path segment: /v1 allows /v1/x, never /v10.
    const base = pattern.path.endsWith("/") ? pattern.path : `${pattern.path}/`;
    return url.pathname.startsWith(base);
  }
  if (pattern.port && pattern.port !== defaultPort(url)) return false;
  const host = url.hostname;
  return pattern.wildcard ? host.endsWith(`.${pattern.host}`) : host === pattern.host;
}

/**
 * Whether `url` is a destination `allowedHosts` lets a credential go to. `undefined` (a credential
 * stored before the setting existed) allows every destination; an empty list allows none.
 */
export function isCredentialDestinationAllowed(url: URL, allowedHosts: readonly string[] | undefined): boolean {
  if (allowedHosts === undefined) return true;
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return allowedHosts.some((entry) => {
    const pattern = parseHostPattern(entry);
    return !("error" in pattern) && matches(pattern, url);
  });
}

/**
 * The allowed-hosts field as forms and the API send it: a list, or one text with entries
 * separated by commas or new lines. At least one entry; each must parse.
 */
export const allowedHostsSchema = z
  .union([z.string().max(10_000), z.array(z.string().max(2000)).max(100)])
  .transform((value) =>
    (typeof value === "string" ? value.split(/[\n,]/) : value).map((entry) => entry.trim()).filter(Boolean),
  )
  .superRefine((entries, context) => {
    if (entries.length === 0) {
      context.addIssue({
        code: "custom",
        message: "Enter at least one host or URL prefix the credential may be sent to",
      });
    }
    if (entries.length > 100) context.addIssue({ code: "custom", message: "At most 100 entries" });
    for (const entry of entries) {
      const parsed = parseHostPattern(entry);
      if ("error" in parsed) context.addIssue({ code: "custom", message: `${parsed.error}` });
    }
  })
  .transform((entries) => [...new Set(entries)]);

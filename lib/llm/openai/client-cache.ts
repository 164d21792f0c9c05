import "server-only";
import OpenAI from "openai";
import { normaliseErrorBody } from "./error-body";
import { httpFetch } from "./http-fetch";

/** What an `openai` client is built from; two equal settings can share one client. */
export interface OpenAIClientSettings {
  /** Base URL including the version path. */
  baseURL: string;
  /** API key (a placeholder for servers that need none). */
  apiKey: string;
  /** Headers on every request (Azure's `api-key` already added). */
  headers: Record<string, string>;
  /** Query parameters on every request. */
  query?: Record<string, string>;
  /** A fetch of the caller's own; such clients are never shared (the fetch may carry state). */
  fetch?: typeof fetch;
}

/** The SDK's own timeout; ours (`request.timeoutMs`) is the one that matters, this only bounds a hung socket. */
const sdkTimeoutMs = 10 * 60 * 1000;

/** Clients by settings, least recently used first. Bounded: settings change, old entries age out. */
const clients = new Map<string, OpenAI>();
/** How many distinct provider settings keep a client; far above what one workspace configures. */
export const MAX_CACHED_CLIENTS = 64;

/**
 * The SDK's client, reading the error bodies of servers that do not wrap them in `error` (see
 * {@link normaliseErrorBody}): without this their message, `param` and `code` are dropped.
 */
class CompatibleOpenAI extends OpenAI {
  protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers) {
    return super.makeStatusError(status, normaliseErrorBody(error) as object, message, headers);
  }
}

function buildClient(settings: OpenAIClientSettings): OpenAI {
  return new CompatibleOpenAI({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    defaultHeaders: settings.headers,
    defaultQuery: settings.query,
    // Our retry loop is explicit and tested; two loops would multiply attempts.
    maxRetries: 0,
    timeout: sdkTimeoutMs,
    // The SDK logs unparsable stream chunks to the console; we turn them into typed errors instead.
    logLevel: "off",
    // Our node:http transport unless the caller brings its own (the provider Test's guarded one).
    fetch: settings.fetch ?? httpFetch,
  });
}

/** Sorted entries, so `{a, b}` and `{b, a}` are the same settings. */
function sortedEntries(record: Record<string, string> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}

/**
 * The `openai` client for these settings: one per distinct base URL, key, headers and query for
 * the process, instead of one per run and model (a client is stateless between requests; building
 * one per run was measurable work on the path of every run's first model call). A client with a
 * caller's own `fetch` is built fresh each time.
 */
export function openAIClientFor(settings: OpenAIClientSettings): OpenAI {
  if (settings.fetch) return buildClient(settings);
  const key = JSON.stringify([
    settings.baseURL,
    settings.apiKey,
    sortedEntries(settings.headers),
    sortedEntries(settings.query),
  ]);
  const cached = clients.get(key);
  if (cached) {
    // Most recently used goes last.
    clients.delete(key);
    clients.set(key, cached);
    return cached;
  }
  const client = buildClient(settings);
  clients.set(key, client);
  if (clients.size > MAX_CACHED_CLIENTS) clients.delete(clients.keys().next().value as string);
  return client;
}

import "server-only";
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { UpstreamError } from "../errors/upstream-error";
import { type Allowlist, allowlistFromEnvironment, parseAllowlist } from "./allowlist";
import { pinnedLookup } from "./pinned-fetch";
import { type AddressLookup, systemLookup, type VettedDestination, vetDestination } from "./ssrf-guard";

/** Most redirects followed before giving up. */
export const MAX_REDIRECTS = 5;
/** Default response body cap: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Default per-request timeout. */
export const DEFAULT_HTTP_TIMEOUT_MS = 15_000;

/** Options for {@link safeFetch}. */
export interface SafeFetchOptions {
  /** HTTP method; GET by default. */
  method?: string;
  /** Request headers. `Host` is always the URL's host. */
  headers?: Record<string, string>;
  /** Request body. */
  body?: string | Uint8Array;
  /** Cancels the request (pass the tool context's signal). */
  signal?: AbortSignal;
  /** Timeout for the whole exchange including redirects. */
  timeoutMs?: number;
  /** Body bytes kept (after decompression); the rest is dropped and `truncated` is set. */
  maxResponseBytes?: number;
  /** Redirect hops followed, each re-checked; at most {@link MAX_REDIRECTS}. */
  maxRedirects?: number;
  /** Extra allowed hosts (`host` or `host:port`), added to {@link HTTP_ALLOWLIST_ENV}'s. */
  allowlist?: readonly string[];
  /** DNS resolver; the system one by default. Tests inject one. */
  lookup?: AddressLookup;
  /** Extra trusted CA certificates (PEM) for HTTPS, e.g. an internal CA. Replaces the default set. */
  ca?: string | string[];
  /** Headers that carry a credential (besides the usual ones): dropped on a redirect to another origin too. */
  credentialHeaders?: readonly string[];
}

/** A completed response. */
export interface SafeFetchResponse {
  /** HTTP status. */
  status: number;
  /** Status text. */
  statusText: string;
  /** Response headers, lowercased names, multiple values joined with ", ". */
  headers: Record<string, string>;
  /** The final URL after redirects. */
  url: string;
  /** Every URL requested, in order. */
  requestedUrls: string[];
  /** The address actually connected to for the final hop. */
  address: string;
  /** The body (decompressed), at most `maxResponseBytes`. */
  body: Buffer;
  /** True when the body was cut to the cap. */
  truncated: boolean;
  /** Body size in bytes: exact when not truncated; Content-Length or the bytes seen when cut. */
  size: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin (they carry credentials). */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization", "x-api-key"];

/** The body as UTF-8 text. */
export function responseText(response: SafeFetchResponse): string {
  return response.body.toString("utf8");
}

/** The body parsed as JSON. @throws UpstreamError when it is not JSON (or was truncated). */
export function responseJson(response: SafeFetchResponse): unknown {
  try {
    return JSON.parse(responseText(response));
  } catch (error) {
    throw new UpstreamError(`Response from ${response.url} is not valid JSON`, {
      status: response.status,
      cause: error,
    });
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

interface HopResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  size: number;
}

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function requestOnce(
  url: URL,
  destination: VettedDestination,
  options: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    signal: AbortSignal;
    maxBytes: number;
    readBody: boolean;
    ca?: string | string[];
  },
): Promise<HopResult> {
  return new Promise<HopResult>((resolve, reject) => {
    const transport = url.protocol === "https:" ? https : http;
    const request = transport.request({
      protocol: url.protocol,
      hostname: destination.hostname,
      port: destination.port,
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: { ...options.headers, host: url.host },
      signal: options.signal,
      lookup: pinnedLookup(destination),
      // A fresh connection per request: a pooled socket may have been opened for another address.
      agent: false,
      ca: options.ca,
      // SNI carries the name, never an IP (TLS forbids IP SNI).
      servername:
        destination.hostname.includes(":") || /^[\d.]+$/.test(destination.hostname) ? undefined : destination.hostname,
    });
    request.on("error", reject);
    request.on("response", (response) => {
      const headers = flattenHeaders(response.headers);
      const status = response.statusCode ?? 0;
      if (!options.readBody) {
        response.resume();
        resolve({
          status,
          statusText: response.statusMessage ?? "",
          headers,
          body: Buffer.alloc(0),
          truncated: false,
          size: 0,
        });
        return;
      }
      const decoder = decoderFor(headers["content-encoding"]);
      const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      let finished = false;
      const finish = (truncated: boolean) => {
        if (finished) return;
        finished = true;
        const declared = Number(headers["content-length"]);
        const size = truncated && !decoder && Number.isFinite(declared) && declared > seen ? declared : seen;
        resolve({
          status,
          statusText: response.statusMessage ?? "",
          headers,
          body: Buffer.concat(chunks),
          truncated,
          size,
        });
      };
      stream.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (kept < options.maxBytes) {
          const slice = chunk.subarray(0, options.maxBytes - kept);
          chunks.push(slice);
          kept += slice.length;
        }
        if (seen > options.maxBytes) {
          // Stop downloading: a huge or endless body must not fill memory or keep the socket busy.
          finish(true);
          response.destroy();
        }
      });
      stream.on("end", () => finish(false));
      stream.on("error", (error: Error) => (finished ? undefined : reject(error)));
      response.on("error", (error: Error) => (finished ? undefined : reject(error)));
    });
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}

function redirectedRequest(status: number, method: string, body: string | Uint8Array | undefined) {
  // Same rules as the fetch standard: 303 always becomes GET; 301/302 turn POST into GET.
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
    return { method: method === "HEAD" ? "HEAD" : "GET", body: undefined, dropBodyHeaders: true };
  }
  return { method, body, dropBodyHeaders: false };
}

/**
 * `fetch` with the SSRF guard: every hop's host is vetted (DNS resolved first, all addresses
 * checked), the socket connects to exactly the vetted address (no DNS rebinding between check
 * and connect), redirects are followed manually and re-checked, and the body is capped.
 * @throws SsrfBlockedError, UpstreamError (network failures, too many redirects),
 * ToolExecutionError `tool_timeout` when `timeoutMs` passes.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const allowlist: Allowlist = [...allowlistFromEnvironment(), ...parseAllowlist(options.allowlist ?? [])];
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const maxRedirects = Math.min(options.maxRedirects ?? MAX_REDIRECTS, MAX_REDIRECTS);
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeoutSignal]) : timeoutSignal;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ToolExecutionError("invalid_url", `"${String(input)}" is not a valid absolute URL`);
  }
  let method = (options.method ?? "GET").toUpperCase();
  let body = options.body;
  let headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const requestedUrls: string[] = [];

  for (let hop = 0; ; hop += 1) {
    requestedUrls.push(url.href);
    const destination = await vetDestination(url, { allowlist, lookup });
    let result: HopResult;
    try {
      result = await requestOnce(url, destination, {
        method,
        headers,
        body,
        signal,
        maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        readBody: method !== "HEAD",
        ca: options.ca,
      });
    } catch (error) {
      if (timeoutSignal.aborted) {
        throw new ToolExecutionError(
          "tool_timeout",
          `HTTP request to ${destination.hostname} timed out after ${timeoutMs} ms`,
          { retryable: true },
        );
      }
      if (signal.aborted) throw signal.reason ?? error;
      throw new UpstreamError(
        `Request to ${destination.hostname} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const location = result.headers.location;
    if (!REDIRECT_STATUSES.has(result.status) || location === undefined) {
      return { ...result, url: url.href, requestedUrls, address: destination.address };
    }
    if (hop >= maxRedirects) {
      throw new UpstreamError(
        `Too many redirects (more than ${maxRedirects}) starting at ${new URL(requestedUrls[0]).origin}`,
        {
          status: result.status,
        },
      );
    }
    const next = new URL(location, url);
    const redirected = redirectedRequest(result.status, method, body);
    method = redirected.method;
    body = redirected.body;
    const nextHeaders: Record<string, string> = { ...headers };
    if (redirected.dropBodyHeaders) {
      delete nextHeaders["content-type"];
      delete nextHeaders["content-length"];
    }
    if (next.origin !== url.origin) {
      for (const name of [...CREDENTIAL_HEADERS, ...(options.credentialHeaders ?? [])]) {
        delete nextHeaders[name.toLowerCase()];
      }
    }
    headers = nextHeaders;
    url = next;
  }
}

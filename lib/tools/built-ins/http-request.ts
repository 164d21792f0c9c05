import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition, toolOutput } from "../define-tool";
import { InvalidArgumentsError } from "../errors/invalid-arguments-error";
import { CREDENTIAL_HEADER_PREFIX, CREDENTIAL_QUERY_PREFIX } from "../http/http-auth";
import type { HttpToolOptions } from "../http/http-tool-options";
import { DEFAULT_MAX_RESPONSE_BYTES, responseText, safeFetch } from "../http/safe-fetch";
import { truncationMarker } from "../truncate-output";

/** Options for {@link createHttpRequestTool}. */
export interface HttpRequestToolOptions extends HttpToolOptions {
  /** Upper bound for the per-call `max_response_bytes` argument; 1 MiB by default. */
  maxResponseBytes?: number;
  /** Upper bound for the per-call `timeout_ms` argument; 30 s by default. */
  maxTimeoutMs?: number;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

const httpRequestParameters = z.object({
  method: z.enum(METHODS).default("GET").describe("HTTP method"),
  url: z.string().describe("Absolute http(s) URL"),
  headers: z.record(z.string(), z.string()).optional().describe("Request headers"),
  query: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe("Query parameters appended to the URL"),
  body: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .optional()
    .describe("Text body, or a JSON object/array sent as application/json"),
  timeout_ms: z.number().int().min(1).optional().describe("Request timeout in milliseconds"),
  max_response_bytes: z.number().int().min(1).optional().describe("Response bytes to keep"),
});

function parseBody(contentType: string | undefined, text: string): unknown {
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * `http_request`: any HTTP call, through the SSRF guard (private, loopback, link-local and
 * metadata destinations are refused unless allowlisted). Not read-only: it can POST.
 */
export function createHttpRequestTool(options: HttpRequestToolOptions = {}): ToolDefinition {
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxTimeoutMs = options.maxTimeoutMs ?? 30_000;
  return defineTool({
    name: "http_request",
    description:
      "Make an HTTP request to a public URL and return the status, headers and body (JSON bodies are parsed). Private and internal addresses are refused.",
    parameters: httpRequestParameters,
    readOnly: false,
    // The wrapper's timeout sits above the largest per-request timeout so the request's own,
    // clearer timeout error wins.
    timeoutMs: maxTimeoutMs + 1000,
    execute: async (args, context) => {
      let url: URL;
      try {
        url = new URL(args.url);
      } catch {
        throw new InvalidArgumentsError(`arguments/url "${args.url}" is not an absolute URL`);
      }
      for (const [name, value] of Object.entries(args.query ?? {})) url.searchParams.append(name, String(value));
      const headers: Record<string, string> = { ...(args.headers ?? {}) };
      // A stored credential (the http node's) arrives beside the arguments, never inside them.
      const credentialHeaders: string[] = [];
      const credentialParameters: string[] = [];
      for (const [key, value] of Object.entries(context.credentials ?? {})) {
        if (key.startsWith(CREDENTIAL_QUERY_PREFIX)) {
          credentialParameters.push(key.slice(CREDENTIAL_QUERY_PREFIX.length));
          url.searchParams.set(key.slice(CREDENTIAL_QUERY_PREFIX.length), value);
        }
        if (!key.startsWith(CREDENTIAL_HEADER_PREFIX)) continue;
        const name = key.slice(CREDENTIAL_HEADER_PREFIX.length).toLowerCase();
        for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name) delete headers[existing];
        headers[name] = value;
        credentialHeaders.push(name);
      }
      // The run's idempotency key (run + node + iteration item, the same on every attempt and
      // after a resume), so a receiver can drop a request repeated by a retry or a crashed worker.
      if (context.idempotencyKey && !Object.keys(headers).some((name) => name.toLowerCase() === "idempotency-key")) {
        headers["idempotency-key"] = context.idempotencyKey;
      }
      let body: string | undefined;
      if (typeof args.body === "string") body = args.body;
      else if (args.body !== undefined) {
        body = JSON.stringify(args.body);
        const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
        if (!hasContentType) headers["content-type"] = "application/json";
      }
      const response = await safeFetch(url, {
        method: args.method,
        headers,
        body,
        signal: context.signal,
        timeoutMs: Math.min(args.timeout_ms ?? maxTimeoutMs, maxTimeoutMs),
        // A workflow node keeps bodies up to its value limit; agents get the tool's own cap.
        maxResponseBytes: Math.min(
          args.max_response_bytes ?? Math.max(maxResponseBytes, context.outputLimitBytes ?? 0),
          Math.max(maxResponseBytes, context.outputLimitBytes ?? 0),
        ),
        allowlist: options.allowlist,
        lookup: options.lookup,
        credentialHeaders,
      });
      const text = responseText(response);
      const finalUrl = redactParameters(response.url, credentialParameters);
      return toolOutput(
        {
          status: response.status,
          status_text: response.statusText,
          url: finalUrl,
          headers: response.headers,
          body: response.truncated
            ? text + truncationMarker(response.size, response.body.length)
            : parseBody(response.headers["content-type"], text),
          truncated: response.truncated,
        },
        { source: finalUrl, truncated: response.truncated, size: response.size },
      );
    },
  });
}

/** The URL with credential query parameters masked, for the result (which run records keep). */
function redactParameters(href: string, names: readonly string[]): string {
  if (names.length === 0) return href;
  const url = new URL(href);
  for (const name of names) if (url.searchParams.has(name)) url.searchParams.set(name, "REDACTED");
  return url.href;
}

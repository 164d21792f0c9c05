import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { type Allowlist, allowlistFromEnvironment, parseAllowlist } from "./allowlist";
import type { HttpToolOptions } from "./http-tool-options";
import { systemLookup, type VettedDestination, vetDestination } from "./ssrf-guard";

/** The `fetch` signature SDKs accept as an injection point. */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `lookup` for `http(s).request` that only ever answers the vetted address. Node's connect asks
 * with `{ all: true }` when autoSelectFamily is on, so both answer shapes are supported. A second
 * DNS answer therefore cannot redirect the socket (no rebinding between check and connect).
 */
export function pinnedLookup(destination: VettedDestination): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  }) as unknown as LookupFunction;
}

function headersToRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

async function bodyToBuffer(body: BodyInit | null | undefined): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  return Buffer.from(await new Response(body).arrayBuffer());
}

/**
 * A streaming `fetch` for SDKs (the MCP Streamable HTTP transport) with the same guarantees as
 * `safeFetch`: the host is vetted on every request and the socket connects to exactly the vetted
 * address. Redirects are not followed (`redirect: "manual"` semantics): a 3xx is returned as is.
 * The body is streamed, so server-sent events work; no size cap is applied here.
 */
export function createPinnedFetch(options: HttpToolOptions = {}): FetchFunction {
  return async (input, init = {}) => {
    const url = new URL(input instanceof URL ? input.href : String(input));
    const allowlist: Allowlist = [...allowlistFromEnvironment(), ...parseAllowlist(options.allowlist ?? [])];
    const destination = await vetDestination(url, { allowlist, lookup: options.lookup ?? systemLookup });
    const body = await bodyToBuffer(init.body);
    return new Promise<Response>((resolve, reject) => {
      const transport = url.protocol === "https:" ? https : http;
      const request = transport.request({
        protocol: url.protocol,
        hostname: destination.hostname,
        port: destination.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        headers: { ...headersToRecord(init.headers), host: url.host },
        signal: init.signal ?? undefined,
        lookup: pinnedLookup(destination),
        agent: false,
        servername:
          destination.hostname.includes(":") || /^[\d.]+$/.test(destination.hostname)
            ? undefined
            : destination.hostname,
      });
      request.on("error", reject);
      request.on("response", (response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
        }
        const status = response.statusCode ?? 0;
        const hasBody = status !== 204 && status !== 304 && init.method !== "HEAD";
        if (!hasBody) response.resume();
        const stream = hasBody
          ? (Readable.toWeb(response) as WebReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>)
          : null;
        resolve(new Response(stream, { status, statusText: response.statusMessage, headers }));
      });
      if (body) request.write(body);
      request.end();
    });
  };
}

/**
 * Serves the published API (`/api/v1/…`) and the health check by calling their built route
 * handlers directly, without Next's per-request routing (route matching, request adapters,
 * the async-storage stores and response piping: about 2–3 ms of CPU per request on a 2-core
 * host, which is most of a one-node run beyond the model and most of a streamed run's first token).
 *
 * The handlers are the very modules Next serves: each is `require`d from `.next/server` as Next
 * requires it, so both share one Turbopack runtime and its module cache (the run bus, the caches
 * and the database client are the same objects). Every route under these prefixes goes through the
 * one `route()` wrapper (lib/http/route.ts), which reads only the Web `Request`: no `next/headers`,
 * no `after()`, no Next request store.
 *
 * Anything this cannot answer exactly as Next would goes to Next unchanged: a path with a `%`
 * (the proxy checks its decoding), a trailing slash (Next redirects it), a path no route of these
 * prefixes matches (the `/api/[...path]` JSON 404), a method the route does not export, and every
 * request if the build's manifest or a route module is not in the shape this expects (a Next
 * upgrade). `TRELLIS_DIRECT_ROUTES=0` turns it off.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";

const require = createRequire(import.meta.url);

/** Path prefixes answered directly: the published API and the health check. */
export const DIRECT_PREFIXES = ["/api/v1/", "/api/health"];

/**
 * @typedef {object} DirectRoute
 * @property {string} page      the route's page, e.g. `/api/v1/workflows/[slug]/run`
 * @property {RegExp} regex     Next's regex for it (from the routes manifest)
 * @property {string[]} keys    the names of its dynamic segments, in order
 * @property {string} file      the built module's path
 */

/**
 * A build's `routes-manifest.json` (Next's routes, in its matching order, and the `headers()` rules).
 * @param {string} distDir the build folder (`.next`)
 */
export function readRoutesManifest(distDir) {
  return JSON.parse(fs.readFileSync(path.join(distDir, "routes-manifest.json"), "utf8"));
}

/**
 * The routes to answer directly, in Next's matching order (static routes, then dynamic ones as
 * the manifest sorts them), read from a build's `routes-manifest.json` and `app-paths-manifest.json`.
 * Catch-all routes are left out (they belong to Next: the JSON 404).
 * @param {string} distDir the build folder (`.next`)
 * @param {string[]} [prefixes]
 * @param {ReturnType<typeof readRoutesManifest>} [manifest] the routes manifest, when already read
 * @returns {DirectRoute[]}
 */
export function loadDirectRoutes(distDir, prefixes = DIRECT_PREFIXES, manifest = readRoutesManifest(distDir)) {
  const appPaths = JSON.parse(fs.readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8"));
  const wanted = (page) =>
    prefixes.some((prefix) => page === prefix || page.startsWith(prefix)) && !page.includes("[...");
  /** @type {DirectRoute[]} */
  const routes = [];
  for (const entry of [...manifest.staticRoutes, ...manifest.dynamicRoutes]) {
    if (!wanted(entry.page)) continue;
    const file = appPaths[`${entry.page}/route`];
    if (typeof file !== "string") continue;
    const keys = [...entry.page.matchAll(/\[([^\]/.]+)\]/g)].map((match) => match[1]);
    routes.push({ page: entry.page, regex: new RegExp(entry.regex), keys, file: path.join(distDir, "server", file) });
  }
  return routes;
}

/**
 * The route and its raw (still encoded) path parameters for a path, or null.
 * @param {DirectRoute[]} routes
 * @param {string} pathname
 * @returns {{ route: DirectRoute, params: Record<string, string> } | null}
 */
export function matchDirectRoute(routes, pathname) {
  for (const route of routes) {
    const match = route.regex.exec(pathname);
    if (!match) continue;
    /** @type {Record<string, string>} */
    const params = {};
    route.keys.forEach((key, index) => {
      params[key] = match[index + 1];
    });
    return { route, params };
  }
  return null;
}

/**
 * The headers next.config's `headers()` adds to a path (the security headers), from the manifest.
 * @param {string} distDir
 * @param {ReturnType<typeof readRoutesManifest>} [manifest] the routes manifest, when already read
 * @returns {(pathname: string) => Array<[string, string]>}
 */
export function loadConfigHeaders(distDir, manifest = readRoutesManifest(distDir)) {
  const rules = (manifest.headers ?? []).map((rule) => ({
    regex: new RegExp(rule.regex),
    headers: rule.headers.map((header) => [header.key, header.value]),
    conditional: Boolean(rule.has || rule.missing),
  }));
  if (rules.some((rule) => rule.conditional)) throw new Error("conditional header rules are not supported here");
  return (pathname) => rules.filter((rule) => rule.regex.test(pathname)).flatMap((rule) => rule.headers);
}

/**
 * The request body as a Web stream that starts reading only when the handler reads it: a body
 * nobody reads (an answer before it, such as a 401) is then left to Node, which discards it after
 * the answer so the connection can carry the next request.
 * @param {import("node:http").IncomingMessage} request
 * @returns {ReadableStream<Uint8Array>}
 */
function lazyBody(request) {
  /** @type {ReadableStreamDefaultReader<Uint8Array> | undefined} */
  let reader;
  return new ReadableStream(
    {
      async pull(controller) {
        reader ??= /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(request)).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader ? reader.cancel(reason) : undefined;
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A Web Request for a Node request: the body streams (not buffered here; the route wrapper caps
 * it), and the signal aborts when the client goes away before the answer is complete.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 */
function webRequest(request, response) {
  const controller = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  // Node's parsed headers (repeats joined), as Next builds them; serve.mjs has already overwritten
  // the peer-address header there, so a client cannot choose it.
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // HTTP/2 pseudo-headers are not part of a Fetch request.
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const protocol = /** @type {{ encrypted?: boolean }} */ (request.socket).encrypted ? "https" : "http";
  const own = request.socket.localAddress ?? "127.0.0.1";
  const ownHost = `${own.includes(":") ? `[${own}]` : own}:${request.socket.localPort}`;
  // A Host header that makes no URL (`a b`, a port past 65535) is the client's mistake, not a
  // reason to fail: like Next, the request is then named after this server's own address.
  const given = request.headers.host;
  // A path, query, fragment or user part in it would change the URL's path or query, not its host.
  const usable = given && !/[/?#@\\\s]/.test(given) && URL.canParse(`${protocol}://${given}/`);
  const host = usable ? given : ownHost;
  const method = request.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`${protocol}://${host}${request.url}`, {
    method,
    headers,
    body: hasBody ? lazyBody(request) : undefined,
    duplex: hasBody ? "half" : undefined,
    signal: controller.signal,
  });
}

/** What a read raced against `NOT_YET` gives when it was not settled yet. */
const NOT_READY = Symbol("not ready");
/** Resolved at once: raced against a read, it tells whether that read was already settled. */
const NOT_YET = Promise.resolve(NOT_READY);

/**
 * Waits until the response can take more (`drain`) or is closed.
 * @param {import("node:http").ServerResponse} response
 */
function drained(response) {
  return new Promise((resolve) => {
    const settle = () => {
      response.off("drain", settle);
      response.off("close", settle);
      resolve(undefined);
    };
    response.on("drain", settle);
    response.on("close", settle);
  });
}

const gzip = promisify(zlib.gzip);

/** Next's compression middleware's rule: at least 1 KiB, of a compressible type. */
const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml)\b|[^;]*\+(json|xml)\b)/i;

/**
 * Whether a whole answer is gzipped, as Next's compression middleware would: the client accepts
 * gzip, the answer is not encoded yet, allows transformation (lib/http/respond.ts marks small JSON
 * answers `no-transform`) and is big enough and of a compressible type.
 * @param {import("node:http").ServerResponse} response
 * @param {string | undefined} acceptEncoding
 * @param {number} size
 */
function shouldGzip(response, acceptEncoding, size) {
  if (size < COMPRESS_MIN_BYTES || !acceptEncoding || response.hasHeader("content-encoding")) return false;
  if (/\bno-transform\b/i.test(String(response.getHeader("cache-control") ?? ""))) return false;
  if (!COMPRESSIBLE.test(String(response.getHeader("content-type") ?? ""))) return false;
  return acceptEncoding.split(",").some((part) => {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
    return (name === "gzip" || name === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Writes a Web Response to a Node response, chunk by chunk as the body yields (SSE goes out as it
 * is produced), waiting for `drain` under backpressure and cancelling the body when the client
 * goes away.
 * @param {Response} answer
 * @param {import("node:http").ServerResponse} response
 * @param {Array<[string, string]>} extraHeaders
 * @param {boolean} head whether the request was HEAD (no body is sent)
 * @param {string | undefined} acceptEncoding the request's `Accept-Encoding`
 */
async function sendWebResponse(answer, response, extraHeaders, head, acceptEncoding) {
  // The client went away while the handler worked: nobody is left to answer.
  if (response.destroyed) {
    await answer.body?.cancel().catch(() => {});
    return;
  }
  response.statusCode = answer.status;
  if (answer.statusText) response.statusMessage = answer.statusText;
  for (const [name, value] of extraHeaders) response.setHeader(name, value);
  const cookies = answer.headers.getSetCookie();
  for (const [name, value] of answer.headers) {
    if (name === "set-cookie") continue;
    response.setHeader(name, value);
  }
  if (cookies.length > 0) response.setHeader("set-cookie", cookies);
  if (!answer.body || head) {
    response.end();
    await answer.body?.cancel().catch(() => {});
    return;
  }
  const reader = answer.body.getReader();
  let closed = false;
  const onClose = () => {
    closed = true;
    reader.cancel().catch(() => {});
  };
  response.once("close", onClose);
  try {
    let pending = reader.read();
    for (;;) {
      const { done, value } = await pending;
      if (done || closed) break;
      pending = reader.read();
      // A body that has already ended (a JSON answer is one chunk) goes out whole in one write, with
      // its length; a stream's chunk (SSE) goes out now, without waiting for the next one.
      const next = await Promise.race([pending, NOT_YET]);
      if (next !== NOT_READY && next.done && !response.headersSent) {
        let body = value;
        if (shouldGzip(response, acceptEncoding, body.byteLength)) {
          body = await gzip(body);
          response.setHeader("content-encoding", "gzip");
          response.removeHeader("content-length");
          const vary = response.getHeader("vary");
          response.setHeader("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
          if (closed) return;
        }
        if (!response.hasHeader("content-length")) response.setHeader("content-length", body.byteLength);
        response.end(body);
        return;
      }
      if (!response.write(value)) await drained(response);
    }
    if (!closed) response.end();
  } catch (error) {
    // The body failed mid-stream: the status is already sent, so the connection is cut rather
    // than the answer looking complete.
    if (!closed) response.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    response.off("close", onClose);
  }
}

/**
 * A request listener step: answers a request directly and returns true, or returns false when the
 * request is Next's to answer.
 * @param {{ distDir: string, log?: (message: string) => void }} options
 * @returns {(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse, fallback: () => void) => boolean}
 *   true when it took the request (it calls `fallback`, Next's handler, itself if the route turns
 *   out not to export the method); false when the request is Next's
 */
export function createDirectRoutes({ distDir, log = console.error }) {
  let routes;
  let configHeaders;
  try {
    const manifest = readRoutesManifest(distDir);
    routes = loadDirectRoutes(distDir, DIRECT_PREFIXES, manifest);
    configHeaders = loadConfigHeaders(distDir, manifest);
  } catch (error) {
    log(`Direct API routes are off (the build's manifests are not as expected): ${error}`);
    return () => false;
  }
  /** @type {Map<string, Promise<Record<string, Function> | null>>} */
  const handlers = new Map();
  let disabled = false;
  const handlersOf = (route) => {
    let loaded = handlers.get(route.file);
    if (!loaded) {
      loaded = (async () => {
        const routeModule = require(route.file).routeModule;
        if (typeof routeModule?.ensureUserland === "function") await routeModule.ensureUserland();
        const userland = routeModule?.userland;
        if (!userland || typeof userland !== "object") throw new Error(`${route.page} has no route handlers`);
        return userland;
      })().catch((error) => {
        disabled = true;
        log(`Direct API routes are off (a built route module is not as expected): ${error}`);
        return null;
      });
      handlers.set(route.file, loaded);
    }
    return loaded;
  };
  // The route wrapper maps every error to its JSON answer; this is for a fault of this file's own.
  const failed = (response, pathname, error) => {
    log(`Direct API route failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    if (response.headersSent || response.destroyed) {
      response.destroy();
      return;
    }
    response.statusCode = 500;
    for (const [name, value] of configHeaders(pathname)) response.setHeader(name, value);
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ error: { code: "internal_error", message: "Something went wrong on the server." } }));
  };

  return (request, response, fallback) => {
    if (disabled) return false;
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!DIRECT_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
    if (pathname.includes("%") || pathname.endsWith("/") || pathname.includes("//")) return false;
    const matched = matchDirectRoute(routes, pathname);
    if (!matched) return false;
    // Methods are case-sensitive: an unusual spelling finds no export and is Next's to answer.
    const method = request.method ?? "GET";
    void (async () => {
      const userland = await handlersOf(matched.route);
      const handler = userland?.[method];
      if (typeof handler !== "function") {
        fallback();
        return;
      }
      try {
        const params = Object.fromEntries(
          Object.entries(matched.params).map(([key, value]) => [key, decodeURIComponent(value)]),
        );
        const answer = await handler(webRequest(request, response), { params: Promise.resolve(params) });
        if (!(answer instanceof Response)) throw new Error(`${matched.route.page} ${method} returned no Response`);
        const acceptEncoding = request.headers["accept-encoding"];
        await sendWebResponse(answer, response, configHeaders(pathname), method === "HEAD", acceptEncoding);
      } catch (error) {
        failed(response, pathname, error);
      }
    })();
    return true;
  };
}

import "server-only";
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/**
 * The `fetch` the adapter hands the `openai` SDK by default: the same contract for what the SDK
 * sends (a POST or GET with a string body), over `node:http`/`node:https` keep-alive agents
 * instead of the global (undici) fetch.
 *
 * Why: every model call of a run shares one event loop, and the global fetch's per-request work
 * (a WHATWG Request, its own AbortSignal, the body turned into a web stream and written through
 * an async iterator, the fetch controller) was the largest CPU cost of a model call after the
 * SDK itself: ~0.6 ms per streamed call against ~0.3 ms here (measured with 10 concurrent calls
 * against the fake server). Ten parallel model nodes pay it ten times, serially, before the last
 * request leaves and again when the answers arrive.
 *
 * What stays the same as the global fetch, because the SDK and our error mapping rely on it:
 * - the answer is a real `Response` whose body is a `ReadableStream` of the bytes as they arrive;
 * - an abort rejects (or errors the body) with `signal.reason`;
 * - a connection that cannot be made rejects with `TypeError("fetch failed", { cause })`, and a
 *   body cut off mid-way errors with `TypeError("terminated", { cause })`;
 * - a compressed body (we ask for none, but a proxy may send one) is decoded;
 * - a redirect is followed: the request is sent again through the global fetch, which applies
 *   the redirect rules (the first answer was only a redirect, so nothing ran twice).
 * Anything else (a `Request` object, a body that is not a string or bytes, another protocol,
 * `redirect` other than `follow`) goes to the global fetch unchanged.
 */
export const httpFetch: typeof fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  if (
    url === undefined ||
    (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) ||
    (init?.redirect !== undefined && init.redirect !== "follow")
  ) {
    return fetch(input, init);
  }
  const protocol = url.startsWith("https:") ? "https:" : url.startsWith("http:") ? "http:" : undefined;
  if (!protocol) return fetch(input, init);
  return send(url, protocol, body ?? undefined, init, input);
};

// One keep-alive pool per protocol for the process, like the global fetch's dispatcher. Idle
// sockets close after 4 s (undici's default), so an idle server holds no connections.
const agents = {
  "http:": new http.Agent({ keepAlive: true, scheduling: "lifo", timeout: 4_000 }),
  "https:": new https.Agent({ keepAlive: true, scheduling: "lifo", timeout: 4_000 }),
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function requestHeaders(
  init: RequestInit | undefined,
  body: string | Uint8Array | undefined,
): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const given = init?.headers;
  if (given instanceof Headers) for (const [name, value] of given) headers[name] = value;
  else if (Array.isArray(given)) for (const [name, value] of given) headers[name.toLowerCase()] = value;
  else if (given) for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
  if (body !== undefined) {
    headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    headers["content-type"] ??= "text/plain;charset=UTF-8";
  }
  return headers;
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index], raw[index + 1]);
  return headers;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** The decoded body stream of a response (a proxy may compress even though we did not ask). */
function decoded(response: http.IncomingMessage): NodeJS.ReadableStream & { destroy(error?: Error): void } {
  const encoding = response.headers["content-encoding"]?.trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : encoding === "deflate"
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : encoding === "br"
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : undefined;
  if (!decoder) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function send(
  url: string,
  protocol: "http:" | "https:",
  body: string | Uint8Array | undefined,
  init: RequestInit | undefined,
  input: string | URL | Request,
): Promise<Response> {
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let source: ReturnType<typeof decoded> | undefined;
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let bodyDone = false;
    const finishBody = () => {
      bodyDone = true;
      signal?.removeEventListener("abort", onAbort);
    };
    const failBody = (error: unknown) => {
      if (bodyDone) return;
      finishBody();
      controller?.error(error);
    };
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      request.destroy();
      source?.destroy();
      if (!settled) {
        settled = true;
        finishBody();
        reject(reason);
      } else failBody(reason);
    };
    const request = (protocol === "https:" ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers: requestHeaders(init, body),
      agent: agents[protocol],
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      if (!settled) {
        settled = true;
        finishBody();
        reject(new TypeError("fetch failed", { cause: error }));
      } else failBody(new TypeError("terminated", { cause: error }));
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      if (redirectStatuses.has(status) && response.headers.location) {
        // Only a redirect answered; the global fetch sends the request again and follows it.
        settled = true;
        finishBody();
        response.destroy();
        fetch(input, init).then(resolve, reject);
        return;
      }
      settled = true;
      const headers = responseHeaders(response.rawHeaders);
      if (nullBodyStatuses.has(status) || init?.method === "HEAD") {
        finishBody();
        response.resume();
        resolve(new Response(null, { status, statusText: response.statusMessage, headers }));
        return;
      }
      const stream = decoded(response);
      source = stream;
      let paused = false;
      const readable = new ReadableStream<Uint8Array>(
        {
          start(streamController) {
            controller = streamController;
            stream.on("data", (chunk: Buffer) => {
              if (bodyDone) return;
              streamController.enqueue(chunk);
              if ((streamController.desiredSize ?? 1) <= 0 && !paused) {
                paused = true;
                stream.pause();
              }
            });
            stream.on("end", () => {
              if (bodyDone) return;
              finishBody();
              streamController.close();
            });
            stream.on("error", (error) => failBody(new TypeError("terminated", { cause: error })));
            // A socket closed before the body ended, without an error event of its own.
            response.on("close", () => {
              if (!response.complete) failBody(new TypeError("terminated", { cause: new Error("other side closed") }));
            });
          },
          pull() {
            if (paused) {
              paused = false;
              stream.resume();
            }
          },
          cancel() {
            finishBody();
            response.destroy();
          },
        },
        { highWaterMark: 64 },
      );
      resolve(new Response(readable, { status, statusText: response.statusMessage, headers }));
    });
    request.end(body);
  });
}

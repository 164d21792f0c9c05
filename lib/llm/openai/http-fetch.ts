import "server-only";
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/**
 * The `fetch` the adapter hands the `openai` SDK by default: the same contract for what the SDK
 * sends (a POST or GET with a string body), over `node:http`/`node:https` keep-alive agents
 * instead of the global (undici) fetch, answering a Response shaped as node-fetch's, which the
 * SDK reads the same way (its body an async iterable of byte chunks, not a WHATWG stream).
 *
 * Why: every model call of a run shares one event loop, and the global fetch's per-request work
 * (a WHATWG Request, its own AbortSignal, the body turned into a web stream and written through
 * an async iterator, the fetch controller) was the largest CPU cost of a model call after the
 * SDK itself: ~0.6 ms per streamed call against ~0.3 ms here (measured with 10 concurrent calls
 * against the fake server). Ten parallel model nodes pay it ten times, serially, before the last
 * request leaves and again when the answers arrive. Building a WHATWG `Response` around a
 * `ReadableStream` for each answer, and passing every chunk through that stream, was then the
 * largest cost of an answer's arrival (about half of a short streamed answer's processing, with
 * ten answers arriving together): the SDK iterates a node-fetch body directly (`Symbol.asyncIterator`
 * comes first in its `ReadableStreamToAsyncIterable`), so the body here is the socket's own stream.
 *
 * What stays the same as the global fetch, because the SDK and our error mapping rely on it:
 * - `status`, `ok`, `statusText`, `url`, `headers` (a real `Headers`), `text()`, `json()`,
 *   `arrayBuffer()` and `bodyUsed` behave as a Response's; `body` is null for a body-less status;
 * - the body's chunks are handed over as they arrive, with backpressure (a chunk is read from
 *   the socket when the reader asks for it);
 * - an abort rejects (or errors the body) with `signal.reason`;
 * - a connection that cannot be made rejects with `TypeError("fetch failed", { cause })`, and a
 *   body cut off mid-way errors with `TypeError("terminated", { cause })`;
 * - a body left unread is released by cancelling it (the SDK does before a retry): the socket
 *   is closed rather than held;
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
    let answer: NodeResponse | undefined;
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      request.destroy();
      if (!settled) {
        settled = true;
        reject(reason);
      } else answer?.body?.fail(reason);
    };
    const request = (protocol === "https:" ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers: requestHeaders(init, body),
      agent: agents[protocol],
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    const stopListening = () => signal?.removeEventListener("abort", onAbort);
    request.on("error", (error) => {
      if (!settled) {
        settled = true;
        stopListening();
        reject(new TypeError("fetch failed", { cause: error }));
      } else answer?.body?.fail(new TypeError("terminated", { cause: error }));
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      settled = true;
      if (redirectStatuses.has(status) && response.headers.location) {
        // Only a redirect answered; the global fetch sends the request again and follows it.
        stopListening();
        response.destroy();
        fetch(input, init).then(resolve, reject);
        return;
      }
      const headers = responseHeaders(response.rawHeaders);
      const hasBody = !nullBodyStatuses.has(status) && init?.method !== "HEAD";
      if (!hasBody) {
        stopListening();
        response.resume();
      }
      answer = new NodeResponse(
        url,
        status,
        response.statusMessage ?? "",
        headers,
        hasBody ? new NodeBody(response, stopListening) : null,
      );
      // A Response-shaped object, as node-fetch's: see the note on httpFetch.
      resolve(answer as unknown as Response);
    });
    request.end(body);
  });
}

/**
 * A response body read straight from the socket: an async iterable of byte chunks (what the SDK
 * iterates), cancellable. Errors are the global fetch's: `TypeError("terminated")` for a cut-off
 * body, or the abort reason.
 */
class NodeBody implements AsyncIterable<Uint8Array> {
  private readonly source: ReturnType<typeof decoded>;
  private failure: unknown;
  private finished = false;
  /** Whether a reader took the body (a Response's `bodyUsed`). */
  used = false;

  constructor(
    private readonly response: http.IncomingMessage,
    private readonly onFinished: () => void,
  ) {
    this.source = decoded(response);
    // Kept for a reader that comes later; without a listener an early error would be thrown.
    this.source.on("error", (error) => {
      this.failure ??= new TypeError("terminated", { cause: error });
    });
    // A socket closed before the body ended, without an error event of its own.
    response.on("close", () => {
      if (!response.complete) this.fail(new TypeError("terminated", { cause: new Error("other side closed") }));
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    this.used = true;
    const chunks = (this.source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    return {
      next: async () => {
        try {
          const next = await chunks.next();
          if (next.done) this.finish();
          return next;
        } catch (error) {
          this.finish();
          throw this.failure ?? new TypeError("terminated", { cause: error });
        }
      },
      return: async () => {
        this.cancel();
        return { done: true, value: undefined };
      },
    };
  }

  /** Stops reading: the connection is closed rather than held with unread bytes. */
  cancel(): void {
    this.stop();
  }

  /** Ends the body with `error` (an abort's reason, or a dropped connection). */
  fail(error: unknown): void {
    this.stop(error);
  }

  /** Closes the connection; a reader still waiting gets `failure` (when given) or `terminated`. */
  private stop(failure?: unknown): void {
    if (this.finished) return;
    if (failure !== undefined) this.failure = failure;
    this.finish();
    this.response.destroy();
    this.source.destroy();
  }

  /** The whole body. */
  async bytes(): Promise<Buffer> {
    if (this.used) throw new TypeError("Body is unusable: Body has already been read");
    const parts: Buffer[] = [];
    for await (const chunk of this) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinished();
  }
}

/** The answer of {@link httpFetch}: the members of a fetch Response the SDK and its callers read. */
class NodeResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = "basic";

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly body: NodeBody | null,
  ) {
    this.ok = status >= 200 && status <= 299;
  }

  get bodyUsed(): boolean {
    return this.body?.used ?? false;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  private bytes(): Promise<Buffer> {
    return this.body ? this.body.bytes() : Promise.resolve(Buffer.alloc(0));
  }
}

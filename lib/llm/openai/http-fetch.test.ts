import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch";

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const servers: Server[] = [];

/** A loopback server whose handler sees the request body; its URL. */
async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => handler(request, response, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The body's chunks, read as the openai SDK reads a body (async iteration comes first). */
function chunksOf(response: Response): AsyncIterator<Uint8Array> {
  return (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected a rejection.");
}

describe("httpFetch", () => {
  it("sends the method, headers and body, and answers a Response with status, headers and body", async () => {
    const url = await serve((request, response, body) => {
      response.writeHead(201, { "content-type": "application/json", "x-request-id": "req_1" });
      response.end(
        JSON.stringify({
          method: request.method,
          auth: request.headers.authorization,
          length: request.headers["content-length"],
          body,
        }),
      );
    });
    const response = await httpFetch(`${url}/v1/chat`, {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer sk-1", "content-type": "application/json" }),
      body: '{"model":"m","é":1}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${url}/v1/chat`);
    expect(response.headers.get("x-request-id")).toBe("req_1");
    expect(await response.json()).toEqual({
      method: "POST",
      auth: "Bearer sk-1",
      length: String(Buffer.byteLength('{"model":"m","é":1}')),
      body: '{"model":"m","é":1}',
    });
  });

  it("hands over streamed body chunks as they arrive, before the response ends", async () => {
    let finish: () => void = () => {};
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      finish = () => response.end("data: [DONE]\n\n");
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    const chunks = chunksOf(response);
    const first = await chunks.next();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    expect(response.bodyUsed).toBe(true);
    finish();
    let rest = "";
    for (;;) {
      const { done, value } = await chunks.next();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe("data: [DONE]\n\n");
  });

  it("keeps the connection alive between requests", async () => {
    const url = await serve((request, response) => response.end(String(request.socket.remotePort)));
    const first = await (await httpFetch(url, { method: "POST", body: "a" })).text();
    const second = await (await httpFetch(url, { method: "POST", body: "b" })).text();
    expect(second).toBe(first);
  });

  it("decodes a gzip body even though it asked for none", async () => {
    const url = await serve((request, response) => {
      expect(request.headers["accept-encoding"]).toBeUndefined();
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
      response.end(gzipSync('{"ok":true}'));
    });
    expect(await (await httpFetch(url, { method: "POST", body: "{}" })).json()).toEqual({ ok: true });
  });

  it("follows a 307 redirect with the same method and body", async () => {
    const target = await serve((request, response, body) => response.end(`${request.method} ${body}`));
    const url = await serve((_request, response) => {
      response.writeHead(307, { location: `${target}/moved` });
      response.end();
    });
    const response = await httpFetch(url, { method: "POST", body: "payload" });
    expect(await response.text()).toBe("POST payload");
  });

  it("answers a 204 with no body", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("rejects with TypeError 'fetch failed' (cause ECONNREFUSED) when nothing listens", async () => {
    const url = await serve(() => {});
    await new Promise((resolve) => servers.splice(0)[0].close(resolve));
    const error = (await caught(httpFetch(url, { method: "POST", body: "{}" }))) as TypeError & {
      cause?: { code?: string };
    };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect(error.cause?.code).toBe("ECONNREFUSED");
  });

  it("errors the body with TypeError 'terminated' when the connection drops mid-body", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: partial\n\n", () => setTimeout(() => response.socket?.destroy(), 10));
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    const error = await caught(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("rejects with the signal's reason when aborted before the answer, and closes the request", async () => {
    let closed: () => void = () => {};
    const requestClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const url = await serve((request) => {
      request.socket.on("close", closed);
      controller.abort(new Error("stop now"));
    });
    const controller = new AbortController();
    const error = await caught(httpFetch(url, { method: "POST", body: "{}", signal: controller.signal }));
    expect((error as Error).message).toBe("stop now");
    await requestClosed;
  });

  it("rejects at once for a signal that is already aborted", async () => {
    const url = await serve(() => {
      throw new Error("the request must not be sent");
    });
    const error = await caught(httpFetch(url, { method: "POST", body: "{}", signal: AbortSignal.abort() }));
    expect((error as DOMException).name).toBe("AbortError");
  });

  it("errors the body with the signal's reason when aborted mid-body", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
    });
    const controller = new AbortController();
    const response = await httpFetch(url, { method: "POST", body: "{}", signal: controller.signal });
    const chunks = chunksOf(response);
    await chunks.next();
    controller.abort();
    const error = await caught(chunks.next());
    expect((error as DOMException).name).toBe("AbortError");
  });

  it("reads a body once: a second read rejects, and bodyUsed says so", async () => {
    const url = await serve((_request, response) => response.end("once"));
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe("once");
    expect(response.bodyUsed).toBe(true);
    expect(await caught(response.text())).toBeInstanceOf(TypeError);
  });

  it("closes the connection when the body is cancelled unread (as the SDK does before a retry)", async () => {
    let closed: () => void = () => {};
    const socketClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const url = await serve((request, response) => {
      request.socket.on("close", closed);
      response.writeHead(429, { "content-type": "application/json" });
      response.write('{"error":');
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    expect(response.ok).toBe(false);
    await chunksOf(response).return?.();
    await socketClosed;
  });

  it("keeps an error that comes before anyone reads the body, and rejects the read with it", async () => {
    let dropped: () => void = () => {};
    const connectionDropped = new Promise<void>((resolve) => {
      dropped = resolve;
    });
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: partial\n\n", () =>
        setTimeout(() => {
          response.socket?.destroy();
          dropped();
        }, 10),
      );
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    await connectionDropped;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const error = await caught(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("keeps a decoding error that comes before anyone reads the body (the process does not crash)", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
      response.end(Buffer.from("this is not gzip"));
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const error = await caught(response.json());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });
});

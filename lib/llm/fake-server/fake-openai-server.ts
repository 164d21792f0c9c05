import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { completionBody, completionChunks, planCompletion } from "./build-completion";
import type {
  FakeChatRequestBody,
  FakeOpenAIServer,
  FakeRecordedRequest,
  FakeReply,
  FakeResponder,
  FakeServerOptions,
} from "./types";

/** Default responder: echoes the last user message, so a bare server is useful for demos. */
export const echoResponder: FakeResponder = (request) => {
  const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
  const content = typeof lastUser?.content === "string" ? lastUser.content : "";
  return { text: `Echo: ${content}` };
};

function wait(ms: number | undefined): Promise<void> {
  return ms && ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Resolves when the client closed the connection (a hung reply holds the request until then). */
function untilClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed || response.socket?.destroyed) return resolve();
    response.once("close", () => resolve());
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function sendError(
  response: ServerResponse,
  reply: NonNullable<FakeReply["error"]>,
  requestHeaders: Record<string, string> = {},
): void {
  const headers: Record<string, string> = {};
  if (reply.echoApiKey) {
    const key = (requestHeaders.authorization ?? "").replace(/^Bearer\s+/i, "");
    const message = `Incorrect API key provided: ${key}. You can find your API key at https://platform.example/account/api-keys.`;
    sendJson(
      response,
      reply.status,
      { error: { message, type: "invalid_request_error", param: null, code: "invalid_api_key" } },
      headers,
    );
    return;
  }
  if (reply.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
  if (reply.retryAfterMs !== undefined) headers["retry-after-ms"] = String(reply.retryAfterMs);
  const type = reply.status === 429 ? "requests" : reply.status >= 500 ? "server_error" : "invalid_request_error";
  const body = reply.body ?? {
    error: {
      message: `Fake error ${reply.status}`,
      type,
      param: null,
      code: reply.status === 429 ? "rate_limit_exceeded" : null,
    },
  };
  sendJson(response, reply.status, body, headers);
}

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1 for tests, benchmarks and the offline
 * e2e: POST `.../chat/completions` (streaming and not) and GET `.../models`. Replies come from
 * the script queue, then the responder. Any path prefix is accepted, so Azure-style
 * `/openai/deployments/<name>/chat/completions?api-version=...` URLs work too.
 */
export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  const queue: Array<FakeReply | FakeResponder> = [];
  const requests: FakeRecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let responder: FakeResponder | undefined;
  const models = options.models ?? ["gpt-4o-mini", "fake-model"];

  async function nextReply(body: FakeChatRequestBody): Promise<FakeReply> {
    const item = queue.shift() ?? responder ?? options.responder ?? echoResponder;
    return typeof item === "function" ? await item(body) : item;
  }

  async function streamReply(response: ServerResponse, record: FakeRecordedRequest, reply: FakeReply): Promise<void> {
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    response.flushHeaders();
    // Resolves once the event reached the socket, so a truncation after n chunks really delivers n chunks.
    const write = (data: string) =>
      new Promise<void>((resolve) => {
        if (record.closedByClient) return resolve();
        response.write(`data: ${data}\n\n`, () => resolve());
      });
    if (reply.rawStream) {
      for (const data of reply.rawStream) await write(data);
      response.end();
      return;
    }
    if (reply.malformedJson) {
      await write('{"id":"chatcmpl-broken","choices":[{"delta":');
      await write("[DONE]");
      response.end();
      return;
    }
    const plan = planCompletion(record.body, reply);
    const chunks = completionChunks(plan, reply, record.body.stream_options?.include_usage === true);
    for (const [index, chunk] of chunks.entries()) {
      if (reply.hangAfterChunks !== undefined && index >= reply.hangAfterChunks) {
        await untilClosed(response);
        return;
      }
      if (reply.truncateStreamAfterChunks !== undefined && index >= reply.truncateStreamAfterChunks) {
        if (reply.truncateMode === "end") response.end();
        else response.socket?.destroy();
        return;
      }
      if (index > 0) await wait(reply.chunkDelayMs);
      if (record.closedByClient) return;
      await write(JSON.stringify(chunk));
    }
    await write("[DONE]");
    response.end();
  }

  async function handleCompletion(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const text = await readBody(request);
    let body: FakeChatRequestBody;
    try {
      body = JSON.parse(text) as FakeChatRequestBody;
    } catch {
      sendJson(response, 400, { error: { message: "Request body is not JSON.", type: "invalid_request_error" } });
      return;
    }
    const record: FakeRecordedRequest = {
      method: request.method ?? "POST",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
      body,
      closedByClient: false,
      receivedAt: performance.now(),
    };
    requests.push(record);
    response.on("close", () => {
      if (!response.writableFinished) record.closedByClient = true;
    });
    response.on("finish", () => {
      record.finishedAt = performance.now();
    });
    // A request the client gave up on before it was read (a timed-out attempt reaching a busy test
    // process late) must not take the scripted reply meant for the next call.
    if (request.socket.destroyed) {
      record.closedByClient = true;
      return;
    }
    const reply = await nextReply(body);
    if (reply.hang) return untilClosed(response);
    await wait(reply.delayMs);
    record.answeredAt = performance.now();
    if (record.closedByClient) return;
    if (reply.error) return sendError(response, reply.error, record.headers);
    if (reply.rawBody !== undefined) return sendJson(response, 200, reply.rawBody);
    if (body.stream) return streamReply(response, record, reply);
    if (reply.malformedJson) return sendJson(response, 200, '{"id":"chatcmpl-broken","choices":[{"message":');
    sendJson(response, 200, completionBody(planCompletion(body, reply)));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const handle = async () => {
      if (request.method === "POST" && url.pathname.endsWith("/chat/completions"))
        return handleCompletion(request, response, url);
      if (request.method === "GET" && url.pathname.endsWith("/models")) {
        return sendJson(response, 200, {
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "trellis-fake" })),
        });
      }
      sendJson(response, 404, {
        error: { message: `No route for ${request.method} ${url.pathname}`, type: "invalid_request_error" },
      });
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error), type: "server_error" } });
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    setResponder: (next) => {
      responder = next;
    },
    get pendingReplies() {
      return queue.length;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

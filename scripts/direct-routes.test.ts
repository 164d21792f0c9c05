import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectRoutes, loadConfigHeaders, loadDirectRoutes, matchDirectRoute } from "./direct-routes.mjs";

/** A build folder with the two manifests and CommonJS route modules shaped as Next builds them. */
function fakeBuild(modules: Record<string, string>): string {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-direct-routes-"));
  const page = (name: string, regex: string) => ({ page: name, regex });
  const manifest = {
    staticRoutes: [
      page("/api/health", "^/api/health(?:/)?$"),
      page("/api/v1/models", "^/api/v1/models(?:/)?$"),
      page("/api/v1/broken", "^/api/v1/broken(?:/)?$"),
      page("/api/workflows", "^/api/workflows(?:/)?$"),
    ],
    dynamicRoutes: [
      page("/api/v1/runs/[runId]", "^/api/v1/runs/([^/]+?)(?:/)?$"),
      page("/api/v1/runs/[runId]/events", "^/api/v1/runs/([^/]+?)/events(?:/)?$"),
      page("/api/v1/workflows/[slug]/run", "^/api/v1/workflows/([^/]+?)/run(?:/)?$"),
      page("/api/[...path]", "^/api/(.+?)(?:/)?$"),
    ],
    headers: [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
        regex: "^(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?(?:/)?$",
      },
    ],
  };
  fs.writeFileSync(path.join(distDir, "routes-manifest.json"), JSON.stringify(manifest));
  const appPaths: Record<string, string> = {};
  for (const [pageName, source] of Object.entries(modules)) {
    const file = `app${pageName}/route.js`;
    appPaths[`${pageName}/route`] = file;
    fs.mkdirSync(path.join(distDir, "server", path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(distDir, "server", file), source);
  }
  appPaths["/api/[...path]/route"] = "app/api/[...path]/route.js";
  fs.writeFileSync(path.join(distDir, "server", "app-paths-manifest.json"), JSON.stringify(appPaths));
  return distDir;
}

/** A route module as Turbopack emits it: `routeModule.userland` loaded by `ensureUserland()`. */
function routeModule(handlers: string): string {
  return `let userland; module.exports = { routeModule: { async ensureUserland() { userland = (() => { ${handlers} })(); }, get userland() { if (!userland) throw new Error("not loaded"); return userland; } } };`;
}

const HEALTH = routeModule(`return {
  async GET(request) {
    const query = new URL(request.url).searchParams;
    if (!query.has("big")) return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
    const headers = { vary: "Origin", ...(query.has("fixed") ? { "cache-control": "no-transform" } : {}) };
    return Response.json({ text: "trellis ".repeat(1000) }, { headers });
  },
};`);

const RUN = routeModule(`
  return {
    async POST(request, context) {
      const params = await context.params;
      const body = await request.text();
      return Response.json({
        params,
        body,
        url: request.url,
        peer: request.headers.get("x-trellis-peer-address"),
        cookie: request.headers.get("cookie"),
      }, { status: 201, headers: [["set-cookie", "a=1"], ["set-cookie", "b=2"]] });
    },
    async GET() { throw new Error("the handler broke"); },
  };`);

const EVENTS = routeModule(`
  return {
    async GET(request) {
      const test = globalThis.__directRoutesTest;
      request.signal.addEventListener("abort", () => test.aborted());
      if (request.url.endsWith("?big")) {
        const chunk = new Uint8Array(64 * 1024).fill(97);
        let sent = 0;
        return new Response(new ReadableStream({
          pull(controller) { if (sent++ < 128) controller.enqueue(chunk); else controller.close(); },
        }));
      }
      return new Response(new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("one;"));
          await test.released;
          controller.enqueue(new TextEncoder().encode("two;"));
          if (!request.url.endsWith("?hold")) controller.close();
        },
        cancel() { test.cancelled(); },
      }), { headers: { "content-type": "text/event-stream" } });
    },
  };`);

const RUN_BY_ID = routeModule(`return {
  GET: async (request, context) => Response.json(await context.params),
  async POST() {
    // Answers only after the test's client has gone away.
    await globalThis.__directRoutesTest.released;
    return new Response(new ReadableStream({
      start(controller) { controller.enqueue(new TextEncoder().encode("late")); },
      cancel() { globalThis.__directRoutesTest.cancelled(); },
    }));
  },
};`);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe("direct routes (scripts/direct-routes.mjs)", () => {
  let distDir: string;
  let origin: string;
  let server: http.Server;
  const logged: string[] = [];
  const fellBack: string[] = [];

  beforeAll(async () => {
    distDir = fakeBuild({
      "/api/health": HEALTH,
      "/api/v1/models": routeModule(
        `return { GET: async () => Response.json({ object: "list" }), POST: async () => new Response(null, { status: 401 }) };`,
      ),
      "/api/v1/broken": "module.exports = { somethingElse: true };",
      "/api/workflows": HEALTH,
      "/api/v1/runs/[runId]": RUN_BY_ID,
      "/api/v1/runs/[runId]/events": EVENTS,
      "/api/v1/workflows/[slug]/run": RUN,
    });
    const direct = createDirectRoutes({ distDir, log: (message: string) => logged.push(message) });
    server = http.createServer((request, response) => {
      // As scripts/serve.mjs does: the peer's address always overwrites what a client sent.
      request.headers["x-trellis-peer-address"] = "peer-from-socket";
      const next = () => {
        fellBack.push(`${request.method} ${request.url}`);
        response.setHeader("content-type", "text/plain");
        response.end("answered by next");
      };
      if (!direct(request, response, next)) next();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  /** One request over a fresh connection (no keep-alive between tests). */
  function send(method: string, pathname: string, options: { body?: string; headers?: Record<string, string> } = {}) {
    return new Promise<Answer>((resolve, reject) => {
      const request = http.request(`${origin}${pathname}`, { method, headers: options.headers, agent: false });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      request.on("error", reject);
      request.end(options.body);
    });
  }

  it("reads the published API and the health check from the manifests, in Next's order, without catch-alls", () => {
    const routes = loadDirectRoutes(distDir);
    expect(routes.map((route) => route.page)).toEqual([
      "/api/health",
      "/api/v1/models",
      "/api/v1/broken",
      "/api/v1/runs/[runId]",
      "/api/v1/runs/[runId]/events",
      "/api/v1/workflows/[slug]/run",
    ]);
    expect(matchDirectRoute(routes, "/api/v1/runs/r1/events")).toMatchObject({
      route: { page: "/api/v1/runs/[runId]/events" },
      params: { runId: "r1" },
    });
    expect(matchDirectRoute(routes, "/api/v1/runs/r1/other")).toBeNull();
    expect(matchDirectRoute(routes, "/api/workflows")).toBeNull();
    expect(loadConfigHeaders(distDir)("/api/v1/models")).toEqual([
      ["X-Frame-Options", "DENY"],
      ["X-Content-Type-Options", "nosniff"],
    ]);
  });

  it("answers with the route handler and adds next.config's headers", async () => {
    const answer = await send("GET", "/api/health");
    expect(answer).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(answer.headers).toMatchObject({
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      "content-type": "application/json",
    });
    expect(fellBack).not.toContain("GET /api/health");
    // A body that is whole at once goes out in one write with its length, not chunked.
    expect(answer.headers["content-length"]).toBe("11");
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
  });

  it("gzips a whole answer of 1 KiB or more when the client accepts it, as Next's compression does", async () => {
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    const big = await new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      http
        .get(`${origin}/api/health?big`, { headers: gzip, agent: false }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
    expect(big.headers).toMatchObject({ "content-encoding": "gzip", vary: "Origin, Accept-Encoding" });
    expect(Number(big.headers["content-length"])).toBe(big.bytes.byteLength);
    expect(JSON.parse(zlib.gunzipSync(big.bytes).toString("utf8")).text).toBe("trellis ".repeat(1000));
    // Not accepted, refused with q=0, marked no-transform, or small: sent as it is.
    for (const [query, headers] of [
      ["big", {}],
      ["big", { "accept-encoding": "gzip;q=0, br" }],
      ["big&fixed", gzip],
      ["", gzip],
    ] as const) {
      const answer = await send("GET", `/api/health?${query}`, { headers });
      expect(answer.headers["content-encoding"], `${query} ${JSON.stringify(headers)}`).toBeUndefined();
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    }
  });

  it("passes path parameters, the body, the URL and the overwritten peer address; keeps every Set-Cookie", async () => {
    const answer = await send("POST", "/api/v1/workflows/my-flow/run?x=1", {
      body: '{"inputs":{}}',
      headers: { "content-type": "application/json", "x-trellis-peer-address": "spoofed", cookie: "c=3" },
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({
      params: { slug: "my-flow" },
      body: '{"inputs":{}}',
      url: `${origin}/api/v1/workflows/my-flow/run?x=1`,
      peer: "peer-from-socket",
      cookie: "c=3",
    });
    expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
  });

  it("names the request after this server when the Host header makes no URL", async () => {
    for (const host of ["a b", "x:99999", "[::1", "evil.example/x?y=1", "user@evil.example"]) {
      const answer = await send("POST", "/api/v1/workflows/my-flow/run", {
        body: "{}",
        headers: { "content-type": "application/json", host },
      });
      expect(answer.status, host).toBe(201);
      expect(JSON.parse(answer.body).url, host).toBe(`${origin}/api/v1/workflows/my-flow/run`);
    }
  });

  it("decodes nothing itself: paths with a percent sign, a trailing slash or no route go to Next", async () => {
    for (const pathname of [
      "/api/v1/runs/a%20b",
      "/api/v1/models/",
      "/api/v1//models",
      "/api/v1/nothing-here",
      "/api/workflows",
      "/login",
    ]) {
      const answer = await send("GET", pathname);
      expect(answer.body, pathname).toBe("answered by next");
    }
    expect(JSON.parse((await send("GET", "/api/v1/runs/run-7")).body)).toEqual({ runId: "run-7" });
  });

  it("leaves a method the route does not export to Next (HEAD, OPTIONS and 405s stay Next's)", async () => {
    expect((await send("PUT", "/api/v1/models")).body).toBe("answered by next");
    expect((await send("HEAD", "/api/v1/models")).status).toBe(200);
    expect(fellBack).toContain("PUT /api/v1/models");
    expect(fellBack).toContain("HEAD /api/v1/models");
  });

  it("answers a handler that throws with a JSON 500 and keeps serving", async () => {
    const answer = await send("GET", "/api/v1/workflows/my-flow/run");
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "internal_error", message: "Something went wrong on the server." },
    });
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(logged.some((line) => line.includes("the handler broke"))).toBe(true);
    expect((await send("GET", "/api/health")).status).toBe(200);
  });

  it("sends each chunk as the body yields it (a stream is not held back until it ends)", async () => {
    let release!: () => void;
    const test = {
      released: new Promise<void>((resolve) => {
        release = resolve;
      }),
      aborted: () => {},
      cancelled: () => {},
    };
    Object.assign(globalThis, { __directRoutesTest: test });
    const chunks: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${origin}/api/v1/runs/r1/events`, { agent: false }, (response) => {
        expect(response.headers["content-type"]).toBe("text/event-stream");
        expect(response.headers["transfer-encoding"]).toBe("chunked");
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          chunks.push(chunk);
          // The second chunk is produced only after the client has the first one.
          if (chunks.length === 1) release();
        });
        response.on("end", resolve);
      });
      request.on("error", reject);
    });
    expect(chunks).toEqual(["one;", "two;"]);
  });

  it("aborts the request's signal and cancels the body when the client goes away mid-stream", async () => {
    let aborted!: () => void;
    let cancelled!: () => void;
    const test = {
      released: Promise.resolve(),
      aborted: new Promise<void>((resolve) => {
        aborted = resolve;
      }),
      cancelled: new Promise<void>((resolve) => {
        cancelled = resolve;
      }),
    };
    Object.assign(globalThis, {
      __directRoutesTest: { released: test.released, aborted: () => aborted(), cancelled: () => cancelled() },
    });
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${origin}/api/v1/runs/r1/events?hold`, { agent: false }, (response) => {
        response.once("data", () => {
          request.destroy();
          resolve();
        });
      });
      request.on("error", (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    await Promise.all([test.aborted, test.cancelled]);
    expect((await send("GET", "/api/health")).status).toBe(200);
  });

  it("drops an answer whose client went away while the handler worked, and keeps serving", async () => {
    let release!: () => void;
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    Object.assign(globalThis, {
      __directRoutesTest: {
        released: new Promise<void>((resolve) => {
          release = resolve;
        }),
        aborted: () => {},
        cancelled: () => cancelled(),
      },
    });
    await new Promise<void>((resolve) => {
      const request = http.request(`${origin}/api/v1/runs/r1`, { method: "POST", agent: false });
      request.on("error", () => resolve());
      request.end("{}", () => setTimeout(() => request.destroy(), 20));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await wasCancelled;
    expect((await send("GET", "/api/health")).status).toBe(200);
  });

  it("streams a body larger than the socket buffers to a client that reads it whole", async () => {
    Object.assign(globalThis, {
      __directRoutesTest: { released: Promise.resolve(), aborted: () => {}, cancelled: () => {} },
    });
    const answer = await send("GET", "/api/v1/runs/r1/events?big");
    expect(answer.body.length).toBe(128 * 64 * 1024);
  });

  it("keeps a keep-alive connection usable after an answer that left the body unread", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const once = (method: string, pathname: string, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(`${origin}${pathname}`, { method, agent }, (response) => {
          sockets.add(response.socket);
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        });
        request.on("error", reject);
        request.end(body);
      });
    expect(await once("GET", "/api/health")).toBe(200);
    expect(await once("POST", "/api/v1/models", "x".repeat(256 * 1024))).toBe(401);
    expect(await once("GET", "/api/health")).toBe(200);
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it("turns itself off, answering through Next, when a built route module is not in the expected shape", async () => {
    const answer = await send("GET", "/api/v1/broken");
    expect(answer.body).toBe("answered by next");
    expect(logged.some((line) => line.includes("Direct API routes are off"))).toBe(true);
    expect((await send("GET", "/api/health")).body).toBe("answered by next");
  });

  it("is off when the build's manifests are missing", () => {
    const lines: string[] = [];
    const direct = createDirectRoutes({
      distDir: path.join(distDir, "missing"),
      log: (line: string) => lines.push(line),
    });
    expect(
      direct({ url: "/api/health", method: "GET" } as http.IncomingMessage, {} as http.ServerResponse, () => {}),
    ).toBe(false);
    expect(lines[0]).toMatch(/Direct API routes are off/);
  });
});

import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { RunRowMissingError } from "../db/run-recorder-rows";
import { ServerFaultError, TrellisError } from "../workflow/errors";
import { jsonAnswer, mapError } from "./respond";

describe("mapError", () => {
  it("keeps the status and issues of a TrellisError thrown by another copy of the errors module", async () => {
    // What a production build does: instrumentation and each route bundle their own copy.
    vi.resetModules();
    const copy = (await import("../workflow/errors")) as typeof import("../workflow/errors");
    expect(copy.TrellisError).not.toBe(TrellisError);
    class ForeignInvalid extends copy.TrellisError {
      readonly issues = [{ code: "unknown_variable", nodeId: "n1" }];
      constructor() {
        super("workflow_invalid", "This node has errors; fix them before running it.");
      }
    }
    const error = new ForeignInvalid();
    expect(error instanceof TrellisError).toBe(false);

    const response = mapError(error);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        code: "workflow_invalid",
        message: "This node has errors; fix them before running it.",
        issues: [{ code: "unknown_variable", nodeId: "n1" }],
      },
    });
  });

  it("answers 404 for *_not_found codes and a logged 500 for anything else", async () => {
    expect(mapError(new TrellisError("node_not_found", "Node x is not in the workflow.")).status).toBe(404);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(Object.assign(new Error("boom"), { code: "workflow_invalid" }));
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("internal_error");
    log.mockRestore();
  });

  it("answers a server fault as a logged 500 keeping its code, without its message", async () => {
    class BackendOdd extends ServerFaultError {
      constructor() {
        super("auth_backend_unexpected", "better-auth answered a sign-in with 502 at /internal/path.");
      }
    }
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new BackendOdd());
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("auth_backend_unexpected");
    expect(body.error.message).not.toContain("better-auth");
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });

  it("recognises a server fault from another copy of the errors module", async () => {
    vi.resetModules();
    const copy = (await import("../workflow/errors")) as typeof import("../workflow/errors");
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new copy.ServerFaultError("run_row_missing", "Run r1 has no row."));
    expect(response.status).toBe(500);
    log.mockRestore();
  });

  it("answers a Run row gone while recording as a server fault (logged 500, code kept, message not sent)", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new RunRowMissingError("run_1"));
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("run_row_missing");
    expect(body.error.message).not.toContain("run_1");
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});

/** The compression middleware `next start` and scripts/serve.mjs put in front of every answer (untyped). */
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => (
  request: http.IncomingMessage,
  reply: http.ServerResponse,
  next: () => void,
) => void;

describe("jsonAnswer", () => {
  /** What Next's server sends for an answer, with Next's compression in front (no Content-Length, as Next drops it). */
  async function served(response: Response): Promise<{ encoding: string | undefined; body: string }> {
    const server = http.createServer((request, reply) => {
      compression()(request, reply, () => undefined);
      reply.statusCode = response.status;
      response.headers.forEach((value, name) => {
        reply.setHeader(name, value);
      });
      void response.arrayBuffer().then((body) => {
        reply.write(Buffer.from(body));
        reply.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      return await new Promise((resolve, reject) => {
        http
          .get({ port, host: "127.0.0.1", headers: { "accept-encoding": "gzip" } }, (answer) => {
            const chunks: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => chunks.push(chunk));
            answer.on("end", () =>
              resolve({
                encoding: answer.headers["content-encoding"],
                body: Buffer.concat(chunks).toString("latin1"),
              }),
            );
          })
          .on("error", reject);
      });
    } finally {
      server.close();
    }
  }

  it("sends a small answer uncompressed (no-transform) and still compresses a large one", async () => {
    const small = jsonAnswer({ runId: "r1", status: "succeeded" }, { status: 201 });
    expect(small.status).toBe(201);
    expect(small.headers.get("content-type")).toBe("application/json");
    expect(small.headers.get("cache-control")).toBe("no-transform");
    expect(await served(small)).toEqual({ encoding: undefined, body: '{"runId":"r1","status":"succeeded"}' });
    const large = jsonAnswer({ text: "x".repeat(4000) });
    expect(large.headers.get("cache-control")).toBeNull();
    expect((await served(large)).encoding).toBe("gzip");
  });

  it("keeps a cache-control the route set", () => {
    const answer = jsonAnswer({ ok: true }, { headers: { "cache-control": "no-store" } });
    expect(answer.headers.get("cache-control")).toBe("no-store, no-transform");
  });

  it("does not repeat a no-transform the headers already carry", () => {
    const first = jsonAnswer({ ok: false }, { headers: { "cache-control": "no-store" } });
    const again = jsonAnswer({ ok: false }, { headers: first.headers });
    expect(again.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(jsonAnswer({}, { headers: { "cache-control": "No-Transform" } }).headers.get("cache-control")).toBe(
      "No-Transform",
    );
  });
});

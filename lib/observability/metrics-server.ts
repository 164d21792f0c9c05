import "server-only";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isTrellisError } from "../workflow/errors";
import type { TrellisMetrics } from "./metrics";
import { assertMetricsAccess } from "./metrics-access";

/** A running metrics server (a worker's own `/metrics` port). */
export interface MetricsServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  readonly port: number;
  /** `http://host:port/metrics`. */
  readonly url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Options of {@link serveMetrics}. */
export interface ServeMetricsOptions {
  /** Port; 0 picks a free one. */
  port: number;
  /** Address to bind; default 127.0.0.1 (a worker shows nothing off the machine unless told to). */
  host?: string;
  /** Bearer token scrapes must send, when set. */
  token?: string;
}

/**
 * Serves `GET /metrics` (Prometheus text format) from `metrics` on a port of its own, for
 * processes without the Next.js server: queue workers. Anything else is 404; a missing or wrong
 * token is 401.
 */
export function serveMetrics(metrics: TrellisMetrics, options: ServeMetricsOptions): Promise<MetricsServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(async (request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { code: "not_found", message: "Only GET /metrics is served here." } }));
      return;
    }
    try {
      assertMetricsAccess(request.headers.authorization, options.token);
      const text = await metrics.text();
      response.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : text);
    } catch (error) {
      const unauthorized = isTrellisError(error) && error.code === "unauthorized";
      response.writeHead(unauthorized ? 401 : 500, {
        "content-type": "application/json",
        ...(unauthorized ? { "www-authenticate": 'Bearer realm="metrics"' } : {}),
      });
      response.end(
        JSON.stringify({
          error: unauthorized
            ? { code: "unauthorized", message: (error as Error).message }
            : { code: "internal_error", message: "The metrics could not be collected." },
        }),
      );
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        port,
        url: `http://${shownHost}:${port}/metrics`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "../route";

/** A loopback HTTP server handing requests to route handlers, for real-HTTP clients (SDKs) in tests. */
export interface RouteServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `127.0.0.1:<port>`, for SSRF allowlists. */
  hostPort: string;
  /** The node server. */
  server: Server;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Serves `routes` (`"POST /api/v1/mcp"` → handler; a `[name]` segment matches one path segment
 * and becomes a param) on 127.0.0.1 at a free port, streaming each answer as it is produced.
 */
export async function startRouteServer(routes: Record<string, RouteHandler>): Promise<RouteServer> {
  const patterns = Object.entries(routes).map(([key, handler]) => {
    const [method, path] = key.split(" ") as [string, string];
    const names: string[] = [];
    const source = path.replace(/\[([^\]]+)\]/g, (_match, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { method, regex: new RegExp(`^${source}$`), names, handler };
  });
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    let params: Record<string, string> = {};
    const match = patterns.find((pattern) => {
      if (pattern.method !== incoming.method) return false;
      const found = pattern.regex.exec(url.pathname);
      if (!found) return false;
      params = Object.fromEntries(pattern.names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]));
      return true;
    });
    if (!match) {
      outgoing.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(", "));
    }
    const aborted = new AbortController();
    outgoing.on("close", () => aborted.abort());
    const request = new Request(url, {
      method: incoming.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      signal: aborted.signal,
    });
    const response = await match.handler(request, { params: Promise.resolve(params) });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        outgoing.write(next.value);
      }
    } catch {
      // The client went away mid-stream.
    }
    outgoing.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

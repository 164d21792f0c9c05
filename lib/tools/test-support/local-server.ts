import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolContext } from "../define-tool";

/** A running HTTP server on 127.0.0.1 for tests. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The bound port. */
  port: number;
  /** `127.0.0.1:<port>`, ready for an allowlist. */
  hostPort: string;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Starts a server on an ephemeral 127.0.0.1 port. */
export async function startLocalServer(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A ToolContext with a fresh signal and no credentials. */
export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return { signal: new AbortController().signal, credentials: {}, ...overrides };
}

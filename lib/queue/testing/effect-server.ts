import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request the side-effect endpoint received. */
export interface EffectRequest {
  item: string;
  idempotencyKey: string | undefined;
}

/** A loopback endpoint standing for a side effect (a payment, an e-mail): it counts calls per item. */
export interface EffectServer {
  url: string;
  hostPort: string;
  requests: EffectRequest[];
  /** How long each request takes to answer. */
  delayMs: number;
  /** Called when a request arrives (before the delay), e.g. to kill a worker mid-item. */
  onRequest?: (request: EffectRequest) => void;
  /** Distinct idempotency keys per item. */
  keysByItem(): Map<string, Set<string | undefined>>;
  close(): Promise<void>;
}

/** Starts the side-effect endpoint on 127.0.0.1. */
export async function startEffectServer(delayMs = 0): Promise<EffectServer> {
  const effect: EffectServer = {
    url: "",
    hostPort: "",
    requests: [],
    delayMs,
    keysByItem() {
      const keys = new Map<string, Set<string | undefined>>();
      for (const request of effect.requests) {
        const set = keys.get(request.item) ?? new Set();
        set.add(request.idempotencyKey);
        keys.set(request.item, set);
      }
      return keys;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const header = request.headers["idempotency-key"];
    const received: EffectRequest = {
      item: url.searchParams.get("item") ?? "",
      idempotencyKey: Array.isArray(header) ? header[0] : header,
    };
    effect.requests.push(received);
    effect.onRequest?.(received);
    request.resume();
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: true, item: received.item }));
    }, effect.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  effect.url = `http://127.0.0.1:${port}/effect`;
  effect.hostPort = `127.0.0.1:${port}`;
  return effect;
}

import "server-only";
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { TrellisError } from "../workflow/errors";

/** Redis did not answer PING in time, refused the connection or answered with an error. Code `redis_unavailable`. */
export class RedisUnavailableError extends TrellisError {
  constructor(reason: string) {
    super("redis_unavailable", `Redis is unavailable: ${reason}`);
  }
}

/** Default bound of one health ping. */
export const REDIS_PING_TIMEOUT_MS = 1_000;

/** Where a `redis://` or `rediss://` URL points, and its credentials. */
interface RedisTarget {
  host: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
}

function parseRedisUrl(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUnavailableError("REDIS_URL is not a URL");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RedisUnavailableError(`REDIS_URL must start with redis:// or rediss://, not ${parsed.protocol}//`);
  }
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: parsed.port ? Number(parsed.port) : 6379,
    tls: parsed.protocol === "rediss:",
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

/** One command in RESP (the Redis protocol): an array of bulk strings. */
function command(...parts: string[]): string {
  return `*${parts.length}\r\n${parts.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join("")}`;
}

/**
 * Sends `PING` (after `AUTH` when the URL has credentials) over a plain socket and waits for
 * `+PONG`, at most `timeoutMs` in all: a health check that needs no Redis client library and can
 * never hang. Resolves with the round-trip time in milliseconds.
 * @throws RedisUnavailableError with the reason (refused, timed out, an error reply)
 */
export function pingRedis(url: string, timeoutMs = REDIS_PING_TIMEOUT_MS): Promise<number> {
  let target: RedisTarget;
  try {
    target = parseRedisUrl(url);
  } catch (error) {
    return Promise.reject(error);
  }
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    let socket: Socket;
    let settled = false;
    let received = "";
    const expected = target.password === undefined ? 1 : 2;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(Math.round((performance.now() - started) * 10) / 10);
    };
    const timer = setTimeout(
      () => finish(new RedisUnavailableError(`no answer to PING within ${timeoutMs} ms`)),
      timeoutMs,
    );
    timer.unref?.();
    const onConnect = () => {
      const auth =
        target.password === undefined
          ? ""
          : target.username
            ? command("AUTH", target.username, target.password)
            : command("AUTH", target.password);
      socket.write(auth + command("PING"));
    };
    socket = target.tls
      ? connectTls({ host: target.host, port: target.port, servername: target.host }, onConnect)
      : connectTcp({ host: target.host, port: target.port }, onConnect);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      const replies = received.split("\r\n").slice(0, -1);
      const failure = replies.find((reply) => reply.startsWith("-"));
      if (failure) return finish(new RedisUnavailableError(`it answered ${failure.slice(1, 200)}`));
      if (replies.length < expected) return;
      const pong = replies[expected - 1];
      finish(pong === "+PONG" ? undefined : new RedisUnavailableError(`unexpected reply ${pong?.slice(0, 200)}`));
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      finish(new RedisUnavailableError(error.code ? `${error.code} ${target.host}:${target.port}` : error.message)),
    );
    socket.on("close", () => finish(new RedisUnavailableError("the connection closed before PONG")));
  });
}

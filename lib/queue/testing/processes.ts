import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";

/** A spawned tsx process with its output kept for error messages. */
export interface SpawnedProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in its output; rejects if it exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `script` with Node + tsx (Node itself, so a SIGKILL hits the process that runs the work). */
export function spawnTsx(script: string, env: Record<string, string | undefined>): SpawnedProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", script], {
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer) => {
    output += String(chunk);
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  let exited = false;
  child.on("exit", () => {
    exited = true;
    for (const waiter of waiters.splice(0)) waiter();
  });
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) return resolve(match);
          if (exited) return reject(new Error(`${script} exited before ${pattern}:\n${output}`));
          if (Date.now() > deadline) return reject(new Error(`${script}: no ${pattern} in time:\n${output}`));
          waiters.push(check);
          setTimeout(check, 200);
        };
        check();
      });
    },
    stop(signal = "SIGKILL") {
      if (exited) return Promise.resolve();
      return new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill(signal);
      });
    },
  };
}

/** One JSON request to a test web process. */
export async function requestJson(
  port: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; elapsedMs: number }> {
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, elapsedMs: Date.now() - started };
}

/** A parsed SSE event. */
export interface SseEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Reads a run's SSE stream from a web process until it ends, or until `stopAfter` events (then
 * disconnects, as a browser tab that goes away mid-run).
 */
export function readRunEvents(
  port: number,
  runId: string,
  options: { lastEventId?: number; stopAfter?: number } = {},
): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const request = http.get(
      {
        host: "127.0.0.1",
        port,
        path: `/runs/${runId}/events`,
        headers: options.lastEventId === undefined ? {} : { "last-event-id": String(options.lastEventId) },
      },
      (response) => {
        let buffer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split("\n")
                .filter((line) => line && !line.startsWith(":"))
                .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
            );
            if (fields.data === undefined) continue;
            events.push({ id: Number(fields.id), type: fields.event ?? "message", data: JSON.parse(fields.data) });
            if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
              request.destroy();
              resolve(events);
              return;
            }
          }
        });
        response.on("end", () => resolve(events));
        response.on("error", () => resolve(events));
      },
    );
    request.on("error", (error) => (options.stopAfter !== undefined ? resolve(events) : reject(error)));
  });
}

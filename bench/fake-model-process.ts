/**
 * The bench's fake model in a process of its own, as a model provider is never inside the API
 * client: in the bench process it shared one event loop with the client that measures, so its
 * replies and the client's reading of the server's answer waited on each other (about 1–1.5 ms
 * of a streamed run's first token on this machine, measured side by side).
 *
 * `startFakeModelProcess()` forks this file (the bench runs under tsx, whose loader the child
 * inherits); the child starts `startFakeOpenAIServer` with bench/bench-model.ts's replies and
 * answers the parent's questions over IPC. The times of the requests it recorded are sent on the
 * system's monotonic clock (`process.hrtime`, one clock for every process) and turned back into
 * the parent's `performance.now()`. Not as epoch milliseconds (`performance.timeOrigin + now()`):
 * each process's time origin is read from the wall clock when it starts, and on this machine two
 * processes started a second apart disagreed by 0.5 ms, and by 10 ms when the wall clock was
 * adjusted in between.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../lib/llm/fake-server";
import { benchResponder } from "./bench-model";

/** A request's timing as the bench reads it (the parent's `performance.now()` clock). */
export interface ModelRequestTimes {
  /** When the body had been read. */
  receivedAt: number;
  /** When the reply began (after its delay). */
  answeredAt?: number;
  /** When the reply's last byte was handed to the socket. */
  finishedAt?: number;
}

/** The fake model process, seen from the bench. */
export interface FakeModelProcess {
  /** Base URL (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** The requests it received since the last `clear()`, with their times. */
  requests(): Promise<ModelRequestTimes[]>;
  /** Forgets the requests received so far. */
  clear(): Promise<void>;
  /** Stops the process. */
  close(): Promise<void>;
}

type ToChild = { id: number; type: "requests" | "clear" };
type FromChild = { type: "ready"; url: string } | { id: number; requests?: ModelRequestTimes[] };

/** Forks the fake model process and waits until it listens. */
export async function startFakeModelProcess(): Promise<FakeModelProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--fake-model-child"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the fake model process exited with ${code}`)));
    child.on("message", (message: FromChild) => {
      if ("type" in message && message.type === "ready") resolve(message.url);
    });
  });
  child.removeAllListeners("exit");
  let next = 0;
  const ask = (type: ToChild["type"]) =>
    new Promise<FromChild>((resolve) => {
      const id = ++next;
      const onMessage = (message: FromChild) => {
        if ("id" in message && message.id === id) {
          child.off("message", onMessage);
          resolve(message);
        }
      };
      child.on("message", onMessage);
      child.send({ id, type } satisfies ToChild);
    });
  const local = (monotonic: number | undefined) =>
    monotonic === undefined ? undefined : monotonic - monotonicOffset();
  return {
    url,
    async requests() {
      const answer = await ask("requests");
      return ("requests" in answer ? (answer.requests ?? []) : []).map((request) => ({
        receivedAt: local(request.receivedAt) as number,
        answeredAt: local(request.answeredAt),
        finishedAt: local(request.finishedAt),
      }));
    },
    async clear() {
      await ask("clear");
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The system's monotonic clock (ms) minus this process's `performance.now()`: both run at one rate. */
function monotonicOffset(): number {
  return Number(process.hrtime.bigint()) / 1e6 - performance.now();
}

/** The child: serves the fake model and answers the parent. */
async function runChild(): Promise<void> {
  const fake: FakeOpenAIServer = await startFakeOpenAIServer({ responder: benchResponder });
  process.on("message", (message: ToChild) => {
    if (message.type === "clear") fake.requests.length = 0;
    const offset = monotonicOffset();
    const monotonic = (time: number | undefined) => (time === undefined ? undefined : time + offset);
    const requests =
      message.type === "requests"
        ? fake.requests.map((request) => ({
            receivedAt: monotonic(request.receivedAt) as number,
            answeredAt: monotonic(request.answeredAt),
            finishedAt: monotonic(request.finishedAt),
          }))
        : undefined;
    process.send?.({ id: message.id, requests } satisfies FromChild);
  });
  // The parent's exit (even a crash) ends this process: IPC closes.
  process.on("disconnect", () => void fake.close().finally(() => process.exit(0)));
  process.on("SIGTERM", () => void fake.close().finally(() => process.exit(0)));
  process.send?.({ type: "ready", url: fake.url } satisfies FromChild);
}

if (process.argv.includes("--fake-model-child")) void runChild();

/**
 * What the benchmarks share: percentiles, a closed-loop load generator, process RSS, the load
 * average and free ports. Measurement helpers only; nothing here is imported by the app.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";

/**
 * Runs a bench's `main` and exits: 0 when it resolves (open handles such as a keep-alive agent
 * must not keep the process up), 1 with the error printed when it rejects.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** Waits `milliseconds`. */
export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * The nearest-rank percentile of `sorted` (ascending), `fraction` in [0, 1], rounded to 0.01;
 * NaN when there are no samples.
 */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (!sorted.length) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round((sorted[index] as number) * 100) / 100;
}

/** The samples sorted ascending (a copy). */
export function sortedCopy(samples: readonly number[]): number[] {
  return [...samples].sort((left, right) => left - right);
}

/** The 1-minute load average, rounded to 0.01 (the machine's cores are shared: say how busy it was). */
export function loadAverage(): number {
  return Math.round(os.loadavg()[0] * 100) / 100;
}

/** What one closed-loop round measured. */
export interface ClosedLoopResult {
  /** Successful operations per second of wall time. */
  per_second: number;
  /** Median latency of the successful operations, ms. */
  p50_ms: number;
  /** 99th percentile latency, ms. */
  p99_ms: number;
  /** Successful operations. */
  count: number;
  /** Operations that failed (threw or answered `false`). */
  failures: number;
  /** The 1-minute load average at the end of the round. */
  load_average_1m: number;
}

/**
 * A closed loop: `clients` loops, each running `operation` one at a time until `seconds` have
 * passed, so the load is bounded by `clients`. `operation` resolves true for a success (its
 * latency counts), false for a failure; a throw is a failure too.
 */
export async function closedLoop(
  clients: number,
  seconds: number,
  operation: () => Promise<boolean>,
): Promise<ClosedLoopResult> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const ok = await operation().catch(() => false);
      if (ok) latencies.push(performance.now() - started);
      else failures++;
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = (performance.now() - began) / 1000;
  const sorted = sortedCopy(latencies);
  return {
    per_second: Math.round((latencies.length / elapsed) * 10) / 10,
    p50_ms: percentile(sorted, 0.5),
    p99_ms: percentile(sorted, 0.99),
    count: latencies.length,
    failures,
    load_average_1m: loadAverage(),
  };
}

/** A process and its descendants (Linux /proc); gone ones drop out. */
function processTree(pid: number): number[] {
  const children = (id: number): number[] => {
    try {
      const listed = fs.readFileSync(`/proc/${id}/task/${id}/children`, "utf8").trim();
      return listed ? listed.split(/\s+/).map(Number) : [];
    } catch {
      return [];
    }
  };
  const tree: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const id = stack.pop() as number;
    tree.push(id);
    stack.push(...children(id));
  }
  return tree;
}

/** VmRSS in MB of a process and its descendants (Linux /proc). */
export function rssMb(pid: number): number {
  let total = 0;
  for (const id of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(total / 1024);
}

/**
 * CPU time (user + system) in ms a process and its descendants have used so far (Linux /proc,
 * 10 ms ticks). The difference over a round, divided by its operations, is the server's CPU per
 * operation: the figure contention on a shared machine inflates least.
 */
export function cpuMs(pid: number): number {
  let total = 0;
  for (const id of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${id}/stat`, "utf8");
      // The fields after the command name (which may hold spaces) start after its last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // gone
    }
  }
  return total;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

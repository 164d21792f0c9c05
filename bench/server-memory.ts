/**
 * The server-memory part of `bench:api`: a bench-only probe preloaded into the server process
 * (`server-memory-probe.cjs`) that answers its `process.memoryUsage()` after a full GC, and the
 * verdicts computed from the per-round figures. Measurement helpers only.
 *
 * What the figures mean:
 * - `mb`: VmRSS of the server process tree as the round left it (before any GC we ask for).
 * - `heap_used_mb`: V8 heap the process still holds after two forced full collections, i.e. what
 *   it retains. A per-run leak shows here first, round after round.
 * - `heap_total_mb`, `external_mb`: V8's reserved heap and memory held outside it by JS objects
 *   (buffers, better-sqlite3), also after the collections.
 * The collections the probe forces also lower the next round's RSS a little (V8 shrinks its heap
 * after a full GC); `BENCH_API_HEAP=off` runs without the probe to compare.
 *
 * "Flat" (the `rss_flat` verdict): over the rounds after the first one (the first loads and
 * compiles the code paths of the run route), the retained heap grows by at most
 * `FLAT_HEAP_GROWTH_MB` from the first to the last round, and RSS by at most
 * `FLAT_RSS_GROWTH_MB`. RSS alone is a poor leak detector (V8 and malloc keep pages they freed,
 * and a new flow's first round compiles new code), so the heap figure is the one that decides
 * whether something accumulates per run; the RSS bound says the process does not creep.
 */
import { freePort } from "./support";

/** Retained heap growth (first to last measured round) still called flat, MB. */
export const FLAT_HEAP_GROWTH_MB = 8;
/** RSS growth (first to last measured round) still called flat, MB. */
export const FLAT_RSS_GROWTH_MB = 64;
/** The idle target of issue 18. */
export const IDLE_RSS_LIMIT_MB = 500;

/** One memory figure of the server (see the header). */
export interface RssPoint {
  mb: number;
  load_average_1m: number;
  heap_used_mb?: number;
  heap_total_mb?: number;
  external_mb?: number;
}

const toMb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/**
 * Node flags and environment that install the probe in the server, and a sampler for it.
 * `BENCH_API_HEAP=off` leaves the probe out (no forced GCs between rounds), to see RSS without them.
 */
export async function memoryProbe(root: string) {
  const port = await freePort();
  if (process.env.BENCH_API_HEAP === "off") {
    return { nodeArguments: [], environment: {}, sample: async (): Promise<Partial<RssPoint>> => ({}) };
  }
  return {
    nodeArguments: ["--expose-gc", "--require", `${root}/bench/server-memory-probe.cjs`],
    environment: { TRELLIS_BENCH_MEMORY_PORT: String(port) },
    /** Heap figures after a full GC in the server; nothing when the probe does not answer. */
    async sample(): Promise<Partial<RssPoint>> {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        const usage = (await response.json()) as NodeJS.MemoryUsage;
        return {
          heap_used_mb: toMb(usage.heapUsed),
          heap_total_mb: toMb(usage.heapTotal),
          external_mb: toMb(usage.external),
        };
      } catch {
        return {};
      }
    },
  };
}

/**
 * The verdicts over the per-round points: rounds are the labels starting with `after_` (in
 * order), minus the first; the idle verdict needs the point after an idle pause of 60 s or more.
 */
export function memoryVerdicts(points: Record<string, RssPoint>, idleLabel: string, idleSeconds: number) {
  const rounds = Object.entries(points)
    .filter(([label]) => label.startsWith("after_"))
    .slice(1);
  const verdict: Record<string, unknown> = {};
  if (rounds.length >= 2) {
    const rss = rounds.map(([, point]) => point.mb);
    const heap = rounds.map(([, point]) => point.heap_used_mb ?? Number.NaN);
    const growth = (values: number[]) => Math.round((values[values.length - 1] - values[0]) * 10) / 10;
    const spread = (values: number[]) => Math.round((Math.max(...values) - Math.min(...values)) * 10) / 10;
    const heapGrowth = growth(heap);
    verdict.rss_flat = {
      rounds: rounds.map(([label]) => label),
      spread_mb: spread(rss),
      growth_mb: growth(rss),
      heap_used_spread_mb: spread(heap),
      heap_used_growth_mb: heapGrowth,
      flat: growth(rss) <= FLAT_RSS_GROWTH_MB && heapGrowth <= FLAT_HEAP_GROWTH_MB,
      limits_mb: { rss_growth: FLAT_RSS_GROWTH_MB, heap_used_growth: FLAT_HEAP_GROWTH_MB },
    };
  }
  const idle = points[idleLabel];
  if (idle && idleSeconds >= 60) verdict.idle_60s_at_most_500mb = idle.mb <= IDLE_RSS_LIMIT_MB;
  return verdict;
}

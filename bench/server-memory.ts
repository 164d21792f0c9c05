/**
 * The server-memory part of `bench:api`: a bench-only probe preloaded into the server process
 * (`server-memory-probe.cjs`) that answers its `process.memoryUsage()`, as it is or after forced
 * full collections, and the verdicts computed from the per-round figures. Measurement helpers only.
 *
 * What the figures mean:
 * - `mb`: VmRSS of the server process tree as the round left it.
 * - `heap_used_mb`, `heap_total_mb`, `external_mb`: V8's heap in use, the heap it has reserved, and
 *   memory held outside it by JS objects. `heap_after_gc: true` marks figures taken after two
 *   forced full collections, i.e. what the process retains; otherwise they include garbage not
 *   collected yet.
 *
 * BENCH_API_HEAP picks how (default `natural`):
 * - `natural`: the figures as they are after each round, and the retained heap (forced GC) only at
 *   the last point, so the rounds run exactly as they would without the probe. A forced GC after
 *   each round would hide how far V8 lets the heap grow between its own major collections, which
 *   is most of the RSS growth under load: measured on the built server, the one_llm and
 *   plan_and_execute rounds took RSS from ~420 to ~870 MB while the retained heap stayed ~165 MB
 *   (V8 lets the old generation reach a few times the live heap before it collects; after 60 s
 *   idle its memory reducer brought RSS back to ~390 MB).
 * - `gc`: the retained heap after every round, to look for per-run leaks (a leak shows as
 *   `heap_used_mb` growing round after round). Its RSS figures are lower than natural ones.
 * - `off`: no probe.
 *
 * "Flat" (the `rss_flat` verdict): over the rounds after the first one (the first loads and
 * compiles the code paths of the run route), RSS grows by at most `FLAT_RSS_GROWTH_MB` from the
 * first to the last round, and, when the figures are after a forced GC, the retained heap by at
 * most `FLAT_HEAP_GROWTH_MB`.
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
  heap_after_gc?: boolean;
}

const toMb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/**
 * Node flags and environment that install the probe in the server, and a sampler for it (see the
 * header for BENCH_API_HEAP).
 */
export async function memoryProbe(root: string) {
  const port = await freePort();
  const mode = process.env.BENCH_API_HEAP ?? "natural";
  if (mode === "off") {
    return { nodeArguments: [], environment: {}, sample: async (_final: boolean): Promise<Partial<RssPoint>> => ({}) };
  }
  return {
    nodeArguments: ["--expose-gc", "--require", `${root}/bench/server-memory-probe.cjs`],
    environment: { TRELLIS_BENCH_MEMORY_PORT: String(port) },
    /** The server's heap figures; after a forced GC in `gc` mode or at the `final` point. */
    async sample(final: boolean): Promise<Partial<RssPoint>> {
      const collect = mode === "gc" || final;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/${collect ? "?gc=1" : ""}`);
        const usage = (await response.json()) as NodeJS.MemoryUsage;
        return {
          heap_used_mb: toMb(usage.heapUsed),
          heap_total_mb: toMb(usage.heapTotal),
          external_mb: toMb(usage.external),
          heap_after_gc: collect,
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
    const growth = (values: number[]) => Math.round((values[values.length - 1] - values[0]) * 10) / 10;
    const spread = (values: number[]) => Math.round((Math.max(...values) - Math.min(...values)) * 10) / 10;
    const flat: Record<string, unknown> = {
      rounds: rounds.map(([label]) => label),
      spread_mb: spread(rss),
      growth_mb: growth(rss),
    };
    let heapFlat = true;
    if (rounds.every(([, point]) => point.heap_after_gc && point.heap_used_mb !== undefined)) {
      const heap = rounds.map(([, point]) => point.heap_used_mb as number);
      flat.heap_used_spread_mb = spread(heap);
      flat.heap_used_growth_mb = growth(heap);
      heapFlat = growth(heap) <= FLAT_HEAP_GROWTH_MB;
    }
    flat.flat = growth(rss) <= FLAT_RSS_GROWTH_MB && heapFlat;
    flat.limits_mb = { rss_growth: FLAT_RSS_GROWTH_MB, heap_used_growth: FLAT_HEAP_GROWTH_MB };
    verdict.rss_flat = flat;
  }
  const idle = points[idleLabel];
  if (idle && idleSeconds >= 60) verdict.idle_60s_at_most_500mb = idle.mb <= IDLE_RSS_LIMIT_MB;
  return verdict;
}

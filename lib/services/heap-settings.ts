import "server-only";
import v8 from "node:v8";
import { ConfigurationError } from "../db/database-config";

/**
 * How much V8 lets the old generation grow past the live heap before its next major collection,
 * in percent (`--heap-growing-percent`): the default for Trellis processes.
 *
 * Why: a busy server's live heap stays near 160 MB (heap snapshots after thousands of runs show no
 * per-run growth), but with V8's own growth factor the garbage between major GCs piled up to
 * ~360 MB of heap and ~600 MB RSS under load, falling back only when idle. Growing by at most 50 %
 * keeps RSS flat from round to round (bench:api `rss_flat`), at no measurable CPU cost per run.
 * Unlike `--max-old-space-size` it scales with the live heap, so a very large run is not starved.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** `TRELLIS_HEAP_GROWING_PERCENT` as a whole number from 0 (V8's own policy) to 1000. */
export function readHeapGrowingPercent(environment: Record<string, string | undefined> = process.env): number {
  const raw = environment.TRELLIS_HEAP_GROWING_PERCENT?.trim();
  if (raw === undefined || raw === "") return DEFAULT_HEAP_GROWING_PERCENT;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) > 1000) {
    throw new ConfigurationError(
      "TRELLIS_HEAP_GROWING_PERCENT",
      `"${raw}" must be a whole number from 0 (V8's default) to 1000`,
    );
  }
  return Number(raw);
}

/**
 * Applies the heap settings to this process (web server and worker call it once at start). A
 * flag given on Node's own command line wins: this only sets what nobody chose.
 */
export function applyHeapSettings(environment: Record<string, string | undefined> = process.env): number {
  const percent = readHeapGrowingPercent(environment);
  const chosenOnCommandLine = [...process.execArgv, ...(environment.NODE_OPTIONS ?? "").split(/\s+/)].some((flag) =>
    flag.startsWith("--heap-growing-percent"),
  );
  if (percent > 0 && !chosenOnCommandLine) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}

import "server-only";
/** Per-run limits. Every limit has a default so a run can never go on forever. */
export interface RunLimits {
  /** Maximum node attempts in the whole run, iteration bodies and retries included. */
  maxSteps: number;
  /** Wall-clock budget of one `runWorkflow` call in milliseconds. */
  deadlineMs: number;
  /** Maximum nesting of container scopes (an iteration inside an iteration is depth 2). */
  maxDepth: number;
  /** Maximum nodes running at once within one scope. */
  maxConcurrency: number;
}

/** The defaults applied to every limit the caller leaves out. */
export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = Object.freeze({
  maxSteps: 500,
  deadlineMs: 20 * 60 * 1000,
  maxDepth: 3,
  maxConcurrency: 10,
});

/** Fills in defaults and clamps nonsense (zero or negative concurrency) to safe values. */
export function resolveLimits(limits: Partial<RunLimits> | undefined): RunLimits {
  const resolved = { ...DEFAULT_RUN_LIMITS, ...stripUndefined(limits) };
  resolved.maxConcurrency = Math.max(1, Math.floor(resolved.maxConcurrency));
  resolved.maxSteps = Math.max(0, Math.floor(resolved.maxSteps));
  resolved.maxDepth = Math.max(0, Math.floor(resolved.maxDepth));
  return resolved;
}

/** Drops undefined fields so `{ maxSteps: undefined }` does not erase the default. */
function stripUndefined(limits: Partial<RunLimits> | undefined): Partial<RunLimits> {
  const result: Partial<RunLimits> = {};
  if (!limits) return result;
  for (const key of Object.keys(limits) as (keyof RunLimits)[]) {
    const value = limits[key];
    if (value !== undefined) result[key] = value;
  }
  return result;
}

import { z } from "zod";
import type { ErrorStrategy, NodePolicy } from "../compiled";
import type { OutputField, OutputPort } from "../node-definition";

/** The three error strategies, in the order the canvas offers them. */
export const ERROR_STRATEGIES = [
  "fail-run",
  "default-output",
  "fail-branch",
] as const satisfies readonly ErrorStrategy[];

/** Upper bound for any per-node timeout: a day, so that a typo cannot park a run for years. */
export const MAX_TIMEOUT_MS = 86_400_000;

/** Retry settings shared by every node type; `maxAttempts` counts the first attempt. */
export const retryPolicySchema = z.object({
  maxAttempts: z.number().int().min(1).max(10),
  intervalMs: z.number().int().min(0).max(600_000).default(1000),
  backoff: z.enum(["fixed", "exponential"]).default("fixed"),
});

/**
 * The policy fields every config schema spreads in. A plain shape (not a schema) so that each
 * node's `z.object({ ...policyShape, ... })` keeps precise inferred types.
 */
export const policyShape = {
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  retry: retryPolicySchema.optional(),
  errorStrategy: z.enum(ERROR_STRATEGIES).default("fail-run"),
  defaultOutput: z.record(z.string(), z.unknown()).optional(),
};

/** The policy part of a parsed config. */
export type PolicyConfig = z.output<z.ZodObject<typeof policyShape>>;

/** Handle id of the extra source handle a node gets when its error strategy is `fail-branch`. */
export const FAIL_PORT_ID = "fail";

/** Handle id of the default source handle. */
export const DEFAULT_SOURCE_HANDLE = "out";

/** Handle id of the default (and only) target handle. */
export const DEFAULT_TARGET_HANDLE = "in";

/** The single default source port most node types have. */
export const DEFAULT_OUTPUT_PORTS: readonly OutputPort[] = [{ id: DEFAULT_SOURCE_HANDLE, label: "Next" }];

/** Appends the `fail` port when the node routes its failures to a branch. */
export function withFailPort(config: Partial<PolicyConfig>, ports: readonly OutputPort[]): OutputPort[] {
  if (config.errorStrategy !== "fail-branch") return [...ports];
  return [...ports, { id: FAIL_PORT_ID, label: "Fail" }];
}

/**
 * Appends the `error` output the engine fills when a handled failure lets the run continue, so
 * that nodes on the fail branch (or after a default output) can reference `{{node.error.message}}`.
 */
export function withErrorField(config: Partial<PolicyConfig>, fields: readonly OutputField[]): OutputField[] {
  if (config.errorStrategy !== "fail-branch" && config.errorStrategy !== "default-output") return [...fields];
  if (fields.some((field) => field.name === "error")) return [...fields];
  return [...fields, { name: "error", type: "object", description: "Set when the node failed: { code, message }" }];
}

// Built once: zod compiles a fast path per schema instance, which costs far more than a parse.
const policySchema = z.object(policyShape);

/** Pulls the engine-facing policy out of a parsed config. */
export function extractPolicy(config: Record<string, unknown>): NodePolicy {
  const parsed = policySchema.safeParse(config);
  if (!parsed.success) return { errorStrategy: "fail-run" };
  const policy: NodePolicy = { errorStrategy: parsed.data.errorStrategy };
  if (parsed.data.timeoutMs !== undefined) policy.timeoutMs = parsed.data.timeoutMs;
  if (parsed.data.retry !== undefined) policy.retry = parsed.data.retry;
  if (parsed.data.defaultOutput !== undefined) policy.defaultOutput = parsed.data.defaultOutput;
  return policy;
}

/** Policy values for a freshly dropped node. */
export function defaultPolicy(): PolicyConfig {
  return { errorStrategy: "fail-run" };
}

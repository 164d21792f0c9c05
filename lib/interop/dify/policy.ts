import { z } from "zod";
import type { PolicyConfig } from "../../workflow/nodes/policy";

/**
 * Error handling and retry every Dify node may carry (BaseNodeData: `error_strategy`,
 * `default_value`, `retry_config`; web `ErrorHandleTypeEnum`, `WorkflowRetryConfig`).
 */
const basePolicySchema = z.looseObject({
  error_strategy: z.string().nullish(),
  default_value: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).nullish(),
  retry_config: z
    .looseObject({
      retry_enabled: z.boolean().default(false),
      max_retries: z.number().default(0),
      retry_interval: z.number().default(1000),
    })
    .nullish(),
});

/** The Trellis policy fields for a Dify node's data, with what changed. */
export function mapPolicy(data: unknown): { policy: Partial<PolicyConfig>; changes: string[] } {
  const parsed = basePolicySchema.safeParse(data);
  if (!parsed.success)
    return { policy: {}, changes: ["Error handling settings could not be read and were left at the default"] };
  const { error_strategy: strategy, default_value: defaults, retry_config: retry } = parsed.data;
  const policy: Partial<PolicyConfig> = {};
  const changes: string[] = [];
  if (strategy === "fail-branch") policy.errorStrategy = "fail-branch";
  else if (strategy === "default-value") {
    policy.errorStrategy = "default-output";
    policy.defaultOutput = Object.fromEntries((defaults ?? []).map((entry) => [entry.key, entry.value]));
  } else if (strategy && strategy !== "none") changes.push(`Error strategy "${strategy}" became "fail the run"`);
  if (retry?.retry_enabled && retry.max_retries > 0) {
    const maxAttempts = Math.min(10, Math.round(retry.max_retries) + 1);
    if (maxAttempts !== retry.max_retries + 1) changes.push(`Retries were capped at ${maxAttempts - 1}`);
    policy.retry = {
      maxAttempts,
      intervalMs: Math.min(600_000, Math.max(0, Math.round(retry.retry_interval))),
      backoff: "fixed",
    };
  }
  return { policy, changes };
}

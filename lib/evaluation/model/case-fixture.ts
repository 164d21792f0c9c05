// A case's fixture: how its trials' tools misbehave, so a case named "transient tool error" or
// "paged results" really meets that fault. The evaluation runner hands it to the run, whose tool
// layer applies it (lib/tools/tool-fixture.ts); nothing else about the run changes.
import { z } from "zod";

/** One injected failure: the tool's `attempt`-th execution in the trial answers this error instead of running. */
export const toolFaultSchema = z.object({
  /** 1-based count of the tool's executions in the run, retries included (attempt 2 is the retry of a failed 1). */
  attempt: z.number().int().min(1, "Attempts count from 1").max(100),
  /** The error message the tool answers. */
  error: z.string().trim().min(1, "Say what the error says").max(500),
  /** Its code; `upstream_unavailable` (what a 503 from the tool's API gives) by default. */
  code: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, "Codes use lowercase letters, digits and _")
    .max(60)
    .default("upstream_unavailable"),
  /** Whether trying again may help (transient): the agent's guard retries such a failure once. */
  retryable: z.boolean().default(true),
});

/** The fixture of one tool. */
export const toolFixtureSchema = z
  .object({
    /** The tool's name as the workflow uses it. */
    tool: z
      .string()
      .trim()
      .min(1, "Name the tool")
      .max(128)
      .regex(/^[A-Za-z0-9_-]+$/, "Tool names use letters, digits, _ and -"),
    /** Failures by attempt. */
    faults: z.array(toolFaultSchema).max(20).default([]),
    /** Arguments set on every call, over what the agent sent (e.g. `{ "page_size": 1 }` for several pages). */
    arguments: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((value, context) => {
    if (value.faults.length === 0 && !value.arguments)
      context.addIssue({ code: "custom", path: ["faults"], message: "Give faults or arguments (or drop the fixture)" });
    const seen = new Set<number>();
    value.faults.forEach((fault, index) => {
      if (seen.has(fault.attempt))
        context.addIssue({
          code: "custom",
          path: ["faults", index, "attempt"],
          message: `Attempt ${fault.attempt} has two faults`,
        });
      seen.add(fault.attempt);
    });
  });

/** A case's fixture. */
export const caseFixtureSchema = z
  .object({ tools: z.array(toolFixtureSchema).min(1, "Give at least one tool").max(10) })
  .superRefine((value, context) => {
    const seen = new Set<string>();
    value.tools.forEach((entry, index) => {
      if (seen.has(entry.tool))
        context.addIssue({
          code: "custom",
          path: ["tools", index, "tool"],
          message: `Tool "${entry.tool}" is listed twice`,
        });
      seen.add(entry.tool);
    });
  });

/** A stored fixture (defaults applied). */
export type CaseFixture = z.output<typeof caseFixtureSchema>;
/** A fixture as people write it. */
export type CaseFixtureInput = z.input<typeof caseFixtureSchema>;

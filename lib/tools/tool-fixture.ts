import "server-only";
import type { ToolDefinition, ToolRegistry, ToolResult } from "./define-tool";
import { createToolRegistry } from "./registry";

/**
 * How one run's tools misbehave (an evaluation case's fixture, validated by
 * lib/evaluation/model/case-fixture.ts): failures by attempt, and arguments forced on every call.
 */
export interface ToolFixture {
  tools: Array<{
    /** The tool's name. */
    tool: string;
    /** The `attempt`-th execution (1-based, retries included) answers this failure instead of running. */
    faults: Array<{ attempt: number; error: string; code: string; retryable: boolean }>;
    /** Set over the caller's arguments before the tool validates and runs them. */
    arguments?: Record<string, unknown>;
  }>;
}

/**
 * Wraps a tool with its fixture. Counting is per wrapper, so create one per run: the run's
 * tools are built per run (lib/services/engine-services.ts), and so is this.
 */
export function withToolFixture(tool: ToolDefinition, fixture: ToolFixture["tools"][number]): ToolDefinition {
  let attempts = 0;
  return {
    ...tool,
    async execute(args, context): Promise<ToolResult> {
      attempts += 1;
      const fault = fixture.faults.find((candidate) => candidate.attempt === attempts);
      if (fault) return { ok: false, error: { code: fault.code, message: fault.error }, retryable: fault.retryable };
      return tool.execute(fixture.arguments ? { ...args, ...fixture.arguments } : args, context);
    },
  };
}

/**
 * The registry with the fixture's tools wrapped. `wrapped` keeps one wrapper per tool name across
 * calls (a run resolves its registry per node), so attempts count over the whole run.
 */
export function applyToolFixture(
  registry: ToolRegistry,
  fixture: ToolFixture,
  wrapped: Map<string, ToolDefinition> = new Map(),
): ToolRegistry {
  const byName = new Map(fixture.tools.map((entry) => [entry.tool, entry]));
  return createToolRegistry(
    registry.list().map((tool) => {
      const entry = byName.get(tool.name);
      if (!entry) return tool;
      let wrapper = wrapped.get(tool.name);
      if (!wrapper) {
        wrapper = withToolFixture(tool, entry);
        wrapped.set(tool.name, wrapper);
      }
      return wrapper;
    }),
  );
}

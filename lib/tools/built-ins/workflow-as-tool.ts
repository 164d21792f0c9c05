import "server-only";
import { defineTool, type ToolDefinition } from "../define-tool";
import type { JsonSchema } from "../json-schema-validator";

/** Options for {@link createWorkflowTool}. */
export interface WorkflowToolOptions {
  /** Tool name shown to the model. */
  name: string;
  /** What the workflow does. */
  description: string;
  /** JSON Schema of the workflow's start inputs (an object schema). */
  inputSchema: JsonSchema;
  /** Runs the published workflow; the app supplies it. Must honour `signal`. */
  runWorkflow: (inputs: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;
  /** Whether the workflow is free of side effects; false unless the author says so. */
  readOnly?: boolean;
  /** Per-call timeout; 5 minutes by default since workflows run several nodes. */
  timeoutMs?: number;
  /** Label for the picker, e.g. the workflow's title and version. */
  label?: string;
}

/** Exposes a published workflow as a tool. Nesting depth is the engine's concern, not this wrapper's. */
export function createWorkflowTool(options: WorkflowToolOptions): ToolDefinition {
  return defineTool({
    name: options.name,
    description: options.description,
    parameters: options.inputSchema,
    readOnly: options.readOnly ?? false,
    timeoutMs: options.timeoutMs ?? 5 * 60_000,
    source: { kind: "workflow", label: options.label ?? options.name },
    execute: (args, context) => options.runWorkflow(args, context.signal),
  });
}

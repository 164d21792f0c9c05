import "server-only";
import { TrellisError } from "../../workflow/errors";
import type { AgentStep } from "../types";

/** The run's AbortSignal fired; the steps recorded so far are kept for the inspector. */
export class AgentCancelledError extends TrellisError {
  /** Steps finished before the cancel. */
  readonly steps: AgentStep[];

  constructor(steps: AgentStep[], cause?: unknown) {
    super("agent_cancelled", "The agent run was cancelled.", { cause });
    this.steps = steps;
  }
}

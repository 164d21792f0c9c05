import "server-only";
import { TrellisError } from "../../workflow/errors";

/** The agent was configured in a way that cannot run (unknown mode, unknown tool name, no tools for a tool mode). */
export class AgentConfigError extends TrellisError {
  constructor(message: string, hint?: string) {
    super("agent_config_invalid", message, { hint });
  }
}

import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";

/** Placeholder until the agent work lands: fails clearly instead of pretending. */
export const plannerExecutor: NodeExecutor = async () => {
  throw new NodeExecutionError("not_implemented", "The planner executor is not implemented yet.");
};

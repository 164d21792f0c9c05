import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";

/** Placeholder until the agent work lands: fails clearly instead of pretending. */
export const synthesizerExecutor: NodeExecutor = async () => {
  throw new NodeExecutionError("not_implemented", "The synthesizer executor is not implemented yet.");
};

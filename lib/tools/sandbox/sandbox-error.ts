import "server-only";
import { ToolExecutionError } from "../errors/tool-execution-error";

/** Stable codes for sandbox failures. */
export type SandboxErrorCode =
  | "sandbox_cpu_limit"
  | "sandbox_memory_limit"
  | "sandbox_stack_overflow"
  | "sandbox_code_error"
  | "sandbox_invalid_result"
  | "sandbox_unavailable"
  /** Python code, and no code sandbox service is configured (TRELLIS_CODE_SANDBOX_URL). */
  | "sandbox_not_configured"
  /** The code sandbox service refused the request (API key, network setting). */
  | "sandbox_rejected";

/**
 * User code failed or hit a limit inside the QuickJS sandbox, or the Python sandbox service
 * failed it. Not retryable (same code, same outcome) except `sandbox_unavailable`.
 */
export class SandboxError extends ToolExecutionError {
  constructor(code: SandboxErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, { retryable: code === "sandbox_unavailable", details });
    this.name = "SandboxError";
  }
}

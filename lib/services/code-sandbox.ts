import "server-only";
import { pythonSandboxFromEnvironment } from "../tools/sandbox/python-sandbox";

/**
 * Whether this server can run Python code nodes: a code sandbox service is configured
 * (TRELLIS_CODE_SANDBOX_URL) and its URL is valid. The import report and the editor say so
 * before a run would fail with `sandbox_not_configured`.
 */
export function pythonSandboxConfigured(): boolean {
  try {
    return pythonSandboxFromEnvironment() !== null;
  } catch {
    return false;
  }
}

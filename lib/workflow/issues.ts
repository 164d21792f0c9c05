/**
 * Compile issues are data, not exceptions: the canvas pins them to nodes and fields, so each
 * carries a stable code and a path into the document.
 */

/** Every issue code the compiler and migrations emit. Codes are stable; messages are not. */
export const WORKFLOW_ISSUE_CODES = [
  "invalid_document",
  "unsupported_schema_version",
  "migration_failed",
  "unknown_node_type",
  "invalid_config",
  "duplicate_node_id",
  "reserved_node_id",
  "duplicate_edge_id",
  "dangling_edge",
  "unknown_source_handle",
  "unknown_target_handle",
  "edge_crosses_container",
  "missing_start_node",
  "multiple_start_nodes",
  "missing_end_node",
  "cycle",
  "unreachable_node",
  "invalid_parent",
  "nesting_too_deep",
  "iteration_without_body",
  "missing_required_input",
  "unknown_variable",
  "type_mismatch",
  "unsupported_node",
  "unknown_tool",
  "internal_error",
] as const;

/** A stable issue code. */
export type WorkflowIssueCode = (typeof WORKFLOW_ISSUE_CODES)[number];

/** Errors block compilation; warnings are shown but the workflow still compiles. */
export type IssueSeverity = "error" | "warning";

/** Codes that only warn: the workflow can still run, but probably not as intended. */
export const WARNING_CODES: ReadonlySet<WorkflowIssueCode> = new Set(["missing_end_node"]);

/** One problem found in a workflow document. */
export interface WorkflowIssue {
  /** Stable machine-readable code. */
  code: WorkflowIssueCode;
  /** Whether the issue blocks compilation. */
  severity: IssueSeverity;
  /** The node the issue belongs to, when there is one. */
  nodeId?: string;
  /** The edge the issue belongs to, when there is one. */
  edgeId?: string;
  /** Path into the document node or edge (e.g. `["data", "model", "model"]`), or into the document itself. */
  path: (string | number)[];
  /** Human-readable explanation. */
  message: string;
}

/** Builds an issue with the code's default severity. */
export function createIssue(
  code: WorkflowIssueCode,
  message: string,
  location: { nodeId?: string; edgeId?: string; path?: (string | number)[] } = {},
): WorkflowIssue {
  const issue: WorkflowIssue = {
    code,
    severity: WARNING_CODES.has(code) ? "warning" : "error",
    path: location.path ?? [],
    message,
  };
  if (location.nodeId !== undefined) issue.nodeId = location.nodeId;
  if (location.edgeId !== undefined) issue.edgeId = location.edgeId;
  return issue;
}

/** Whether any issue blocks compilation. */
export function hasErrors(issues: readonly WorkflowIssue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

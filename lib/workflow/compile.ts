import type { CompiledWorkflow } from "./compiled";
import { buildCompiledWorkflow } from "./compiler/build-compiled-workflow";
import { checkEdges } from "./compiler/check-edges";
import {
  checkContainersAndEnds,
  checkCycles,
  checkReachability,
  checkRequiredInputs,
  checkStartNodes,
} from "./compiler/check-flow";
import { checkNodes, checkParents } from "./compiler/check-nodes";
import { checkReferences } from "./compiler/check-references";
import { checkToolNames } from "./compiler/check-tools";
import { type CompileContext, createContext } from "./compiler/context";
import { createIssue, hasErrors, type WorkflowIssue } from "./issues";
import { type MigrationResult, migrateDocument } from "./migrations";

export { WORKFLOW_ISSUE_CODES, type WorkflowIssue, type WorkflowIssueCode } from "./issues";

/** What the caller knows that a document cannot say. */
export interface CompileOptions {
  /**
   * Every tool name the workspace provides. When given, a tool, agent or planner node naming
   * another tool is an `unknown_tool` issue; when omitted, tool names are not checked.
   */
  knownToolNames?: Iterable<string>;
}

/** The compiler's answer: a runnable workflow plus warnings, or every issue found. */
export type CompileResult =
  | { ok: true; workflow: CompiledWorkflow; warnings: WorkflowIssue[]; appliedMigrations: string[] }
  | { ok: false; issues: WorkflowIssue[] };

/**
 * Migrates, validates and compiles a stored document. Never throws: user mistakes become issues,
 * and a bug in the compiler itself becomes one `internal_error` issue, so the canvas and the
 * publish endpoint can always show something.
 *
 * Checks run in dependency order (nodes, parents, edges, flow, references); each later check only
 * looks at what earlier ones accepted, so one mistake yields one issue rather than a cascade.
 */
export function compileWorkflow(input: unknown, options: CompileOptions = {}): CompileResult {
  try {
    const migrated = migrateDocument(input);
    if (!migrated.ok) return { ok: false, issues: migrated.issues };
    const { context, startNodeId } = checkDocument(migrated, options);
    if (hasErrors(context.issues) || startNodeId === undefined) return { ok: false, issues: context.issues };
    return {
      ok: true,
      workflow: buildCompiledWorkflow(context, startNodeId),
      warnings: context.issues,
      appliedMigrations: migrated.applied,
    };
  } catch (error) {
    return { ok: false, issues: [internalError(error)] };
  }
}

/** The checked document: every issue found, in `context.issues`. */
export interface CheckedDocument {
  /** What the checks learned (parsed configs, valid edges, order) and the issues. */
  context: CompileContext;
  /** The start node, when there is exactly one. */
  startNodeId: string | undefined;
}

/** Runs every check on a migrated document. Used by `compileWorkflow` and `compileNodeRun`. */
export function checkDocument(
  migrated: Extract<MigrationResult, { ok: true }>,
  options: CompileOptions = {},
): CheckedDocument {
  const context = createContext(migrated.document);
  checkNodes(context);
  checkParents(context);
  checkEdges(context);
  const startNodeId = checkStartNodes(context);
  checkCycles(context);
  checkReachability(context, startNodeId);
  checkContainersAndEnds(context);
  checkRequiredInputs(context);
  checkReferences(context);
  checkToolNames(context, options.knownToolNames ? new Set(options.knownToolNames) : undefined);
  return { context, startNodeId };
}

/** The one issue a bug in the compiler itself becomes. */
export function internalError(error: unknown): WorkflowIssue {
  const message = `The compiler failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
  return createIssue("internal_error", message);
}

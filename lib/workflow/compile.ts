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
import { createContext } from "./compiler/context";
import { createIssue, hasErrors, type WorkflowIssue } from "./issues";
import { migrateDocument } from "./migrations";

export { WORKFLOW_ISSUE_CODES, type WorkflowIssue, type WorkflowIssueCode } from "./issues";

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
export function compileWorkflow(input: unknown): CompileResult {
  try {
    const migrated = migrateDocument(input);
    if (!migrated.ok) return { ok: false, issues: migrated.issues };
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
    if (hasErrors(context.issues) || startNodeId === undefined) return { ok: false, issues: context.issues };
    return {
      ok: true,
      workflow: buildCompiledWorkflow(context, startNodeId),
      warnings: context.issues,
      appliedMigrations: migrated.applied,
    };
  } catch (error) {
    const message = `The compiler failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, issues: [createIssue("internal_error", message)] };
  }
}

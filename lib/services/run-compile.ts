import "server-only";
import { type CompileResult, compileWorkflow } from "../workflow/compile";
import { compileNodeRun } from "../workflow/compile-node-run";
import type { CompiledWorkflow } from "../workflow/compiled";
import { TrellisError } from "../workflow/errors";
import type { StartConfig } from "../workflow/nodes/start";
import { applyPins, pinsOf } from "../workflow/pins";
import { checkRunInputs, type RunInputIssue } from "../workflow/run-inputs";
import { builtInToolNames, compiledVersion } from "./compiled-versions";
import type { StartRunInput, StartSingleNodeInput } from "./run-execution";
import { planSingleNodeRun, SingleNodeNotFoundError } from "./single-node-workflow";
import { listWorkspaceTools } from "./workspace-tools";

/** The document did not compile; `issues` says where. */
export class WorkflowInvalidError extends TrellisError {
  /** Compile issues with node, field path and code. */
  readonly issues: unknown[];

  constructor(issues: unknown[], message = "The workflow has errors; fix them before running.") {
    super("workflow_invalid", message);
    this.issues = issues;
  }
}

/** The start inputs do not match the start node's declared inputs. Code `invalid_input` (422), every field listed. */
export class InvalidRunInputsError extends TrellisError {
  /** One entry per bad field: `{ field, code, message }` (`path` too, as compile issues have). */
  readonly issues: (RunInputIssue & { path: string })[];
  /** The first bad field, for forms that show one. */
  readonly details: { field: string };

  constructor(issues: RunInputIssue[]) {
    super("invalid_input", `The run inputs are not valid: ${issues.map((issue) => issue.message).join(" ")}`, {
      hint: "Send the inputs the start node declares, with their declared types.",
    });
    this.issues = issues.map((issue) => ({ ...issue, path: `inputs.${issue.field}` }));
    this.details = { field: `inputs.${issues[0]?.field ?? ""}` };
  }
}

/**
 * Checks run inputs against the compiled workflow's start node before any run exists, so a bad
 * request is a 422 naming each field rather than a failed run.
 * @throws InvalidRunInputsError
 */
export function assertRunInputs(compiled: CompiledWorkflow, inputs: Record<string, unknown>): void {
  const start = compiled.nodes[compiled.startNodeId];
  if (!start) return;
  const checked = checkRunInputs(start.config as unknown as StartConfig, inputs);
  if (!checked.ok) throw new InvalidRunInputsError(checked.issues);
}

/** The workspace's tool names for the compiler's unknown-tool check; undefined skips the check. */
export type ListToolNames = (workspaceId: string) => Promise<string[] | undefined>;

/** Tool names of a workspace; when the sources cannot be listed the engine reports it at run time. */
async function workspaceToolNames(workspaceId: string): Promise<string[] | undefined> {
  try {
    return (await listWorkspaceTools(workspaceId)).tools.map((tool) => tool.name);
  } catch {
    return undefined;
  }
}

/**
 * Compiles with the workspace's tool names for the unknown-tool check (`listToolNames` when the
 * service was given one). Listing them builds every tool of the workspace's sources, so a first
 * compile checks against the built-ins alone: when it passes, every tool the flow names is a
 * built-in (the workspace list always holds them) and the result is the one the full list
 * gives. Otherwise it compiles again with the full list.
 */
export async function compileWithToolNames<Result extends { ok: boolean }>(
  workspaceId: string,
  compile: (knownToolNames: string[] | undefined) => Result,
  listToolNames?: ListToolNames,
): Promise<Result> {
  if (listToolNames) return compile(await listToolNames(workspaceId));
  const againstBuiltIns = compile(builtInToolNames());
  if (againstBuiltIns.ok) return againstBuiltIns;
  return compile(await workspaceToolNames(workspaceId));
}

/**
 * Compiles the document to run. A published version is immutable, so the compile of one that
 * names only built-in tools is kept by version id (see `compiledVersion`); the rest compile
 * every time (a workspace tool can come and go between runs).
 */
async function compileForStart(input: StartRunInput, listToolNames?: ListToolNames): Promise<CompileResult> {
  const cacheable = !listToolNames && input.versionId !== undefined && input.trigger !== "editor";
  if (cacheable) {
    const cached = compiledVersion(input.versionId as string, input.document);
    if (cached) return cached;
  }
  return compileWithToolNames(
    input.workspaceId,
    (knownToolNames) => compileWorkflow(input.document, { knownToolNames }),
    listToolNames,
  );
}

/**
 * The workflow a run of `input` executes: compiled (refused with its issues when invalid), pins
 * applied for editor runs only, inputs checked against the start node.
 * @throws WorkflowInvalidError, InvalidRunInputsError
 */
export async function planRun(input: StartRunInput, listToolNames?: ListToolNames): Promise<CompiledWorkflow> {
  const compiled = await compileForStart(input, listToolNames);
  if (!compiled.ok) throw new WorkflowInvalidError(compiled.issues);
  // Pins are for building the flow in the editor; published, API and scheduled runs execute every node.
  const workflow = input.trigger === "editor" ? applyPins(compiled.workflow, input.document) : compiled.workflow;
  assertRunInputs(workflow, input.inputs);
  return workflow;
}

/**
 * What running one node alone executes: the node (and a container's body) compiled, and the
 * checkpoint state in which every upstream node is finished (see `planSingleNodeRun`).
 * @throws SingleNodeNotFoundError, WorkflowInvalidError
 */
export async function planSingleNode(
  input: StartSingleNodeInput,
  listToolNames?: ListToolNames,
): Promise<{ workflow: CompiledWorkflow; state: Record<string, unknown> }> {
  // Only the node (and a container's body) must be valid: the rest of a draft is often unfinished.
  const compiled = await compileWithToolNames(
    input.workspaceId,
    (knownToolNames) => compileNodeRun(input.document, input.nodeId, { knownToolNames }),
    listToolNames,
  );
  if (!compiled.ok) {
    if (compiled.nodeMissing) throw new SingleNodeNotFoundError(input.nodeId);
    throw new WorkflowInvalidError(compiled.issues, "This node has errors; fix them before running it.");
  }
  // A pinned upstream node hands on its pin, whatever the dialog prefilled for it.
  const pinnedUpstream = Object.fromEntries(
    [...pinsOf(input.document)]
      .filter(([nodeId]) => nodeId !== input.nodeId)
      .map(([nodeId, pin]) => [nodeId, pin.outputs]),
  );
  const plan = planSingleNodeRun(compiled.workflow, input.nodeId, { ...input.variables, ...pinnedUpstream });
  return { workflow: plan.workflow, state: plan.state as unknown as Record<string, unknown> };
}

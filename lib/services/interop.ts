import "server-only";
import { listHttpCredentials } from "../db/http-credential-repository";
import { listProviderNames } from "../db/provider-repository";
import { createWorkflow as createWorkflowRow } from "../db/workflow-repository";
import { ImportFileError, MAX_IMPORT_CHARACTERS } from "../interop/errors";
import { prepareImport } from "../interop/import-workflow";
import type { ReferenceMapping, WorkspaceInventory } from "../interop/report";
import { buildWorkflowFile } from "../interop/trellis/workflow-file";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { pythonSandboxConfigured } from "./code-sandbox";
import { loadWorkflow } from "./workflows";
import { listWorkspaceTools } from "./workspace-tools";

/** What an import names that the workspace may or may not have: tools, HTTP credentials, providers. */
async function workspaceInventory(workspaceId: string): Promise<WorkspaceInventory> {
  const [{ tools }, credentials, providers] = await Promise.all([
    listWorkspaceTools(workspaceId),
    listHttpCredentials(workspaceId),
    listProviderNames(workspaceId),
  ]);
  return {
    tools: tools.map((tool) => tool.name),
    credentials: credentials.map((credential) => credential.name),
    providers: ["default", ...providers.filter((name) => name !== "default")],
  };
}

/**
 * Imports a Dify DSL file or a Trellis export into the principal's workspace. With `dryRun` only
 * the report is answered; otherwise the workflow is created (even when it does not compile yet:
 * the report and the editor say what to fix).
 * @throws ImportFileError (422/413 naming the path in the file)
 */
export async function importWorkflow(
  principal: Principal | null,
  input: {
    format: "dify" | "trellis";
    content: string;
    name?: string;
    mapping?: ReferenceMapping;
    dryRun: boolean;
  },
) {
  authorize(principal, "workflow.create");
  if (input.content.length > MAX_IMPORT_CHARACTERS) {
    throw new ImportFileError("import_too_large", "(file)", "The file is larger than 10 MB.");
  }
  const prepared = prepareImport(input, await workspaceInventory(principal.workspaceId), {
    pythonSandbox: pythonSandboxConfigured(),
  });
  if (input.dryRun) return { name: prepared.name, report: prepared.report, document: prepared.document };
  const created = await createWorkflowRow(principal.workspaceId, {
    name: prepared.name,
    description: prepared.description,
    draft: prepared.document,
    userId: actingUserId(principal) ?? "",
  });
  return { id: created.id, name: prepared.name, report: prepared.report };
}

/**
 * The workflow's Trellis export file: the draft plus the names of the tools (with the tool source
 * each comes from), HTTP credentials and model providers it uses. Never a secret.
 */
export async function exportWorkflow(principal: Principal | null, workflowId: string) {
  const workflow = await loadWorkflow(principal, workflowId);
  const { tools } = await listWorkspaceTools(workflow.workspaceId);
  const toolSources = Object.fromEntries(
    tools.filter((tool) => tool.source.kind !== "built-in").map((tool) => [tool.name, tool.source.label]),
  );
  return {
    name: workflow.name,
    file: buildWorkflowFile(workflow.name, workflow.description, workflow.draft, toolSources),
  };
}

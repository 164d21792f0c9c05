import { compileWorkflow } from "../workflow/compile";
import type { WorkflowDocument } from "../workflow/document";
import type { ImportFormat } from "./detect-format";
import { importDifyWorkflow } from "./dify/map-workflow";
import { applyReferenceMapping, collectDocumentReferences, resolveReferences } from "./references";
import type { ImportReport, ReferenceMapping, WorkspaceInventory } from "./report";
import { importTrellisWorkflow } from "./trellis/import-workflow";

/** A prepared import: what would be saved, and the report to show first. */
export interface PreparedImport {
  name: string;
  description: string;
  document: WorkflowDocument;
  report: ImportReport;
}

/**
 * Reads a file in either format, applies the user's reference mapping, and checks every tool,
 * credential and provider against the target workspace. Pure: the caller supplies the inventory.
 * Throws only ImportFileError (a 4xx naming the path).
 */
export function prepareImport(
  input: { format: ImportFormat; content: string; name?: string; mapping?: ReferenceMapping },
  inventory: WorkspaceInventory,
  /** What the server can run; unknown capabilities are not reported. */
  server: { pythonSandbox?: boolean } = {},
): PreparedImport {
  const imported =
    input.format === "dify" ? importDifyWorkflow(input.content) : importTrellisWorkflow(input.content, input.name);
  const document = applyReferenceMapping(imported.document, input.mapping);
  const references = resolveReferences(collectDocumentReferences(document), inventory, imported.report.references);
  // A reference mapped away is no longer in the document; say what it was mapped to.
  const notes = [...imported.report.notes];
  for (const [kind, table] of Object.entries(input.mapping ?? {})) {
    for (const [from, to] of Object.entries(table ?? {}))
      if (to) notes.push(`Mapped ${kind.replace(/s$/, "")} "${from}" to "${to}"`);
  }
  const pythonNodes = document.nodes.filter((node) => node.type === "code" && node.data.language === "python3");
  if (pythonNodes.length > 0 && server.pythonSandbox === false) {
    notes.push(
      `This server has no code sandbox service for Python (TRELLIS_CODE_SANDBOX_URL): ${pythonNodes.length === 1 ? "the Python code node fails" : `the ${pythonNodes.length} Python code nodes fail`} with sandbox_not_configured until one is set, or until ${pythonNodes.length === 1 ? "it is" : "they are"} rewritten in JavaScript`,
    );
  }
  const compiled = document === imported.document ? undefined : compileWorkflow(document);
  return {
    name: input.name?.trim() || imported.name,
    description: imported.description,
    document,
    report: {
      ...imported.report,
      references,
      notes,
      compile: compiled
        ? { ok: compiled.ok, issues: compiled.ok ? compiled.warnings : compiled.issues }
        : imported.report.compile,
    },
  };
}

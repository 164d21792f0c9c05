import { compileWorkflow } from "../../workflow/compile";
import { getNodeDefinition } from "../../workflow/nodes";
import { ImportFileError, MAX_IMPORT_CHARACTERS } from "../errors";
import type { ImportReport } from "../report";
import { summarize } from "../report";
import { parseWorkflowFile, type WorkflowFile } from "./workflow-file";

/** A Trellis file read for import, with its report (references are resolved by the caller against the workspace). */
export interface TrellisImport {
  name: string;
  description: string;
  document: WorkflowFile["document"];
  report: ImportReport;
}

/** Reads a Trellis export (or a bare document). Throws only {@link ImportFileError}, naming the field. */
export function importTrellisWorkflow(text: string, fallbackName = "Imported workflow"): TrellisImport {
  if (text.length > MAX_IMPORT_CHARACTERS) {
    throw new ImportFileError(
      "import_too_large",
      "(file)",
      `The file is larger than ${MAX_IMPORT_CHARACTERS / 1024 / 1024} MB`,
    );
  }
  const parsed = parseWorkflowFile(text, fallbackName);
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    throw new ImportFileError("invalid_import", first.field, first.message);
  }
  const { file } = parsed;
  const nodes = file.document.nodes.map((node) => ({
    nodeId: node.id,
    sourceId: node.id,
    sourceType: node.type,
    title: node.data.title,
    status: getNodeDefinition(node.type) ? ("mapped" as const) : ("unsupported" as const),
    trellisType: node.type,
    changes: [],
    ...(getNodeDefinition(node.type) ? {} : { reason: `Node type "${node.type}" is not known to this version` }),
  }));
  const compiled = compileWorkflow(file.document);
  const sources = (file.references?.tools ?? []).filter((tool) => tool.source);
  return {
    name: file.name,
    description: file.description ?? "",
    document: file.document,
    report: {
      format: "trellis",
      source: { name: file.name, version: String(file.document.schemaVersion) },
      nodes,
      secrets: [],
      references: [],
      notes: sources.map(
        (tool) => `Tool "${tool.name}" came from the tool source "${tool.source}" in the exporting workspace`,
      ),
      compile: { ok: compiled.ok, issues: compiled.ok ? compiled.warnings : compiled.issues },
      summary: summarize(nodes),
    },
  };
}

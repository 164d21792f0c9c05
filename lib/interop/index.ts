export { detectImportFormat, type ImportFormat } from "./detect-format";
export { formatPath, ImportFileError, MAX_IMPORT_CHARACTERS } from "./errors";
export { type PreparedImport, prepareImport } from "./import-workflow";
export { applyReferenceMapping, collectDocumentReferences, resolveReferences } from "./references";
export type * from "./report";

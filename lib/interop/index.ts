export { formatPath, ImportFileError, MAX_IMPORT_CHARACTERS } from "./errors";
export { detectImportFormat, type ImportFormat, type PreparedImport, prepareImport } from "./import-workflow";
export { applyReferenceMapping, collectDocumentReferences, resolveReferences } from "./references";
export type * from "./report";

export { type DifyImport, importDifyWorkflow, mapDifyFile } from "./map-workflow";
export { parseDifyFile } from "./parse";

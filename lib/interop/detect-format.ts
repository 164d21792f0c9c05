/** Formats the importer reads. */
export type ImportFormat = "dify" | "trellis";

/**
 * Guesses the format: JSON objects are Trellis exports, anything else is read as Dify YAML. Dify's
 * export API answers `{ "data": "<the YAML>" }` (what export scripts save): that is Dify too.
 */
export function detectImportFormat(content: string): ImportFormat {
  const trimmed = content.trimStart();
  if (!trimmed.startsWith("{")) return "dify";
  try {
    return isDifyExportAnswer(JSON.parse(trimmed)) ? "dify" : "trellis";
  } catch {
    return "dify"; // YAML flow mappings also start with "{"
  }
}

/** Dify's export API answer: `{ "data": "<DSL YAML>" }` and nothing a workflow file has. */
export function isDifyExportAnswer(value: unknown): value is { data: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.data === "string" && !("app" in record) && !("workflow" in record) && !("kind" in record);
}

/** Formats the importer reads. */
export type ImportFormat = "dify" | "trellis";

/** Guesses the format: JSON objects are Trellis exports, anything else is read as Dify YAML. */
export function detectImportFormat(content: string): ImportFormat {
  const trimmed = content.trimStart();
  if (!trimmed.startsWith("{")) return "dify";
  try {
    JSON.parse(trimmed);
    return "trellis";
  } catch {
    return "dify"; // YAML flow mappings also start with "{"
  }
}

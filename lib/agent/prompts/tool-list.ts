import "server-only";
import type { ModelToolSpec } from "../../llm/language-model";

/**
 * One line per tool for text-protocol prompts: `- name: description Arguments JSON Schema: {...}`.
 * The offline demo model reads this exact shape back, so keep it in sync with lib/llm/demo.
 */
export function formatToolLines(tools: readonly ModelToolSpec[]): string {
  if (tools.length === 0) return "(no tools)";
  return tools
    .map(
      (tool) =>
        `- ${tool.name}: ${tool.description.replace(/\s+/g, " ").trim()} Arguments JSON Schema: ${JSON.stringify(tool.parameters)}`,
    )
    .join("\n");
}

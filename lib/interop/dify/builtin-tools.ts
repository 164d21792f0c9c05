/**
 * Dify built-in tools that have a Trellis built-in with the same behaviour, by `provider/tool`
 * (the provider is the last segment of `provider_id`, e.g. `langgenius/time/time` → `time`).
 * Parameters are renamed where the two differ. Everything else is an unresolved tool reference
 * the import report lists, which the user can map onto a tool of the workspace.
 */
export const BUILTIN_TOOLS: Record<string, { tool: string; parameters?: Record<string, string> }> = {
  "time/current_time": { tool: "current_time", parameters: { timezone: "timezone" } },
  "maths/eval_expression": { tool: "calculator", parameters: { expression: "expression" } },
  "code/simple_code": { tool: "code", parameters: { code: "code" } },
  "webscraper/webscraper": { tool: "http_request", parameters: { url: "url" } },
};

/** The Trellis tool for a Dify provider/tool pair, if there is one. */
export function findBuiltinTool(providerId: string, toolName: string) {
  const provider = providerId.split("/").at(-1) ?? providerId;
  return BUILTIN_TOOLS[`${provider}/${toolName}`];
}

/** The name an unresolved Dify tool is listed under. */
export function difyToolName(providerId: string, toolName: string): string {
  const provider = providerId.split("/").at(-1) ?? providerId;
  return `${provider}/${toolName}`;
}

/** Keys whose values are credentials, in tool settings and placeholders' kept data. */
export const SECRET_KEY = /(api[_-]?key|secret|password|passwd|token|credential|authorization|access[_-]?key)/i;

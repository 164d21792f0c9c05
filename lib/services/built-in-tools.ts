import "server-only";
import { createCalculatorTool } from "../tools/built-ins/calculator";
import { createCodeTool } from "../tools/built-ins/code";
import { createConvertCurrencyTool } from "../tools/built-ins/convert-currency";
import { createCurrentTimeTool } from "../tools/built-ins/current-time";
import { createSearchMeetingNotesTool, createSearchTicketsTool } from "../tools/built-ins/demo-tickets";
import { createGetCurrentWeatherTool } from "../tools/built-ins/get-current-weather";
import { createHttpRequestTool } from "../tools/built-ins/http-request";
import { createPythonTool } from "../tools/built-ins/python";
import type { ToolDefinition } from "../tools/define-tool";

let created: readonly ToolDefinition[] | undefined;

/**
 * Every built-in tool. The definitions hold no per-run state and read their settings (endpoints,
 * the HTTP allowlist) from the environment when they execute, so they are built once per process
 * and shared by every run: building them compiles nine schemas. Each call returns a new array.
 */
export function builtInTools(): ToolDefinition[] {
  created ??= [
    createHttpRequestTool(),
    createGetCurrentWeatherTool(),
    createConvertCurrencyTool(),
    createCalculatorTool(),
    createCurrentTimeTool(),
    createCodeTool(),
    createPythonTool(),
    createSearchTicketsTool(),
    createSearchMeetingNotesTool(),
  ];
  return [...created];
}

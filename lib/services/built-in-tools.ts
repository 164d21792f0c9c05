import "server-only";
import { createCalculatorTool } from "../tools/built-ins/calculator";
import { createCodeTool } from "../tools/built-ins/code";
import { createConvertCurrencyTool } from "../tools/built-ins/convert-currency";
import { createCurrentTimeTool } from "../tools/built-ins/current-time";
import { createSearchMeetingNotesTool, createSearchTicketsTool } from "../tools/built-ins/demo-tickets";
import { createGetCurrentWeatherTool } from "../tools/built-ins/get-current-weather";
import { createHttpRequestTool } from "../tools/built-ins/http-request";
import type { ToolDefinition } from "../tools/define-tool";

/** Every built-in tool, created with settings read from the environment at call time. */
export function builtInTools(): ToolDefinition[] {
  return [
    createHttpRequestTool(),
    createGetCurrentWeatherTool(),
    createConvertCurrencyTool(),
    createCalculatorTool(),
    createCurrentTimeTool(),
    createCodeTool(),
    createSearchTicketsTool(),
    createSearchMeetingNotesTool(),
  ];
}

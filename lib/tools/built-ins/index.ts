import "server-only";
import type { ToolDefinition, ToolRegistry } from "../define-tool";
import type { HttpToolOptions } from "../http/http-tool-options";
import { createToolRegistry } from "../registry";
import { createCalculatorTool } from "./calculator";
import { type CodeToolOptions, createCodeTool } from "./code";
import { type CurrencyToolOptions, createConvertCurrencyTool } from "./convert-currency";
import { createCurrentTimeTool } from "./current-time";
import { createSearchMeetingNotesTool, createSearchTicketsTool, type DemoTicketToolOptions } from "./demo-tickets";
import { createGetCurrentWeatherTool, type WeatherToolOptions } from "./get-current-weather";
import { createHttpRequestTool, type HttpRequestToolOptions } from "./http-request";
import { createPythonTool, type PythonToolOptions } from "./python";

export { createCalculatorTool } from "./calculator";
export { createCodeTool } from "./code";
export { createConvertCurrencyTool } from "./convert-currency";
export { createCurrentTimeTool } from "./current-time";
export { createSearchMeetingNotesTool, createSearchTicketsTool } from "./demo-tickets";
export { createGetCurrentWeatherTool } from "./get-current-weather";
export { createHttpRequestTool } from "./http-request";
export { createPythonTool } from "./python";
export { createWorkflowTool, type WorkflowToolOptions } from "./workflow-as-tool";

/** Names of the built-in tools. */
export const BUILT_IN_TOOL_NAMES = [
  "http_request",
  "get_current_weather",
  "convert_currency",
  "search_tickets",
  "search_meeting_notes",
  "calculator",
  "current_time",
  "code",
  "python",
] as const;

/** Per-tool options for {@link createBuiltInTools}; `network` applies to every HTTP tool. */
export interface BuiltInToolOptions {
  /** Allowlist and resolver shared by the HTTP tools. */
  network?: HttpToolOptions;
  /** `http_request` caps. */
  httpRequest?: HttpRequestToolOptions;
  /** `get_current_weather` endpoints. */
  weather?: WeatherToolOptions;
  /** `convert_currency` base URL. */
  currency?: CurrencyToolOptions;
  /** `search_tickets` / `search_meeting_notes` base URL. */
  demoTickets?: DemoTicketToolOptions;
  /** `code` sandbox limits. */
  code?: CodeToolOptions;
  /** Where `python` runs. */
  python?: PythonToolOptions;
}

/** Every built-in tool, configured. */
export function createBuiltInTools(options: BuiltInToolOptions = {}): ToolDefinition[] {
  const network = options.network ?? {};
  return [
    createHttpRequestTool({ ...network, ...options.httpRequest }),
    createGetCurrentWeatherTool({ ...network, ...options.weather }),
    createConvertCurrencyTool({ ...network, ...options.currency }),
    createSearchTicketsTool({ ...network, ...options.demoTickets }),
    createSearchMeetingNotesTool({ ...network, ...options.demoTickets }),
    createCalculatorTool(),
    createCurrentTimeTool(),
    createCodeTool(options.code),
    createPythonTool(options.python),
  ];
}

/** A registry of the built-in tools. */
export function createBuiltInToolRegistry(options: BuiltInToolOptions = {}): ToolRegistry {
  return createToolRegistry(createBuiltInTools(options));
}

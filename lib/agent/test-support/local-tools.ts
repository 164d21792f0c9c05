import { defineTool, type ToolDefinition } from "../../tools/define-tool";
import { ToolExecutionError } from "../../tools/errors/tool-execution-error";

/** Start and end times of one tool execution, for overlap assertions. */
export interface ToolTiming {
  /** Tool name. */
  tool: string;
  /** Arguments. */
  args: Record<string, unknown>;
  /** performance.now() at start. */
  start: number;
  /** performance.now() at end. */
  end: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Local weather: fixed precipitation per city, optional delay; records timings. */
export function localWeatherTool(options: {
  precipitation: Record<string, number>;
  delayMs?: number;
  timings?: ToolTiming[];
}): ToolDefinition {
  return defineTool({
    name: "get_current_weather",
    description: "Get the current weather for a given city, including temperature and precipitation",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "The name of the city" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      },
      required: ["city"],
      additionalProperties: false,
    },
    readOnly: true,
    execute: async (args, context) => {
      const { city } = args as { city: string };
      const start = performance.now();
      if (options.delayMs) await sleep(options.delayMs, context.signal);
      options.timings?.push({
        tool: "get_current_weather",
        args: args as Record<string, unknown>,
        start,
        end: performance.now(),
      });
      const precipitation = options.precipitation[city];
      if (precipitation === undefined)
        throw new ToolExecutionError("city_not_found", `No city named "${city}"`, { retryable: false });
      return { city, temperature_c: 17.4, precipitation_mm: precipitation, unit: "celsius" };
    },
  });
}

/** Local currency conversion with fixed rates per EUR. */
export function localCurrencyTool(): ToolDefinition {
  const perEur: Record<string, number> = { EUR: 1, USD: 1.085, GBP: 0.85 };
  return defineTool({
    name: "convert_currency",
    description: "Convert an amount from one currency to another",
    parameters: {
      type: "object",
      properties: {
        amount: { type: "number" },
        from: { type: "string", pattern: "^[A-Z]{3}$" },
        to: { type: "string", pattern: "^[A-Z]{3}$" },
      },
      required: ["amount", "from", "to"],
      additionalProperties: false,
    },
    readOnly: true,
    execute: (args) => {
      const { amount, from, to } = args as { amount: number; from: string; to: string };
      const rate = perEur[to] / perEur[from];
      return { amount, from, to, rate, converted_amount: Math.round(amount * rate * 100) / 100 };
    },
  });
}

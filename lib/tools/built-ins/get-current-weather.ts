import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition, toolOutput } from "../define-tool";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { UpstreamError } from "../errors/upstream-error";
import { configuredUrl, fetchJson } from "../http/fetch-json";
import type { HttpToolOptions } from "../http/http-tool-options";

/** Environment variable overriding the Open-Meteo geocoding endpoint. */
export const WEATHER_GEOCODING_URL_ENV = "TRELLIS_WEATHER_GEOCODING_URL";
/** Environment variable overriding the Open-Meteo forecast endpoint. */
export const WEATHER_FORECAST_URL_ENV = "TRELLIS_WEATHER_FORECAST_URL";
/** Public Open-Meteo endpoints (no API key). */
export const DEFAULT_GEOCODING_URL = "https://geocoding-api.open-meteo.com/v1/search";
/** Public Open-Meteo forecast endpoint. */
export const DEFAULT_FORECAST_URL = "https://api.open-meteo.com/v1/forecast";

/** Options for {@link createGetCurrentWeatherTool}. */
export interface WeatherToolOptions extends HttpToolOptions {
  /** Geocoding endpoint; `TRELLIS_WEATHER_GEOCODING_URL` or Open-Meteo's by default. */
  geocodingUrl?: string;
  /** Forecast endpoint; `TRELLIS_WEATHER_FORECAST_URL` or Open-Meteo's by default. */
  forecastUrl?: string;
}

const geocodingAnswer = z.object({
  results: z
    .array(z.object({ name: z.string(), latitude: z.number(), longitude: z.number(), country: z.string().optional() }))
    .optional(),
});
const forecastAnswer = z.object({
  current: z.object({ time: z.string().optional(), temperature_2m: z.number(), precipitation: z.number() }),
});

function parseAnswer<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new UpstreamError(`Unexpected ${what} answer: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * `get_current_weather({ city, unit? })`: geocodes the city with Open-Meteo, then reads the
 * current temperature and precipitation. Takes and returns exactly seed 003's schema:
 * `{ city, temperature, precipitation_mm, unit }`. Read-only.
 */
export function createGetCurrentWeatherTool(options: WeatherToolOptions = {}): ToolDefinition {
  return defineTool({
    name: "get_current_weather",
    description: "Get the current weather for a given city, including temperature and precipitation",
    parameters: z.object({
      city: z.string().min(1).describe("The name of the city"),
      unit: z.enum(["celsius", "fahrenheit"]).optional(),
    }),
    readOnly: true,
    timeoutMs: 20_000,
    execute: async ({ city, unit: requestedUnit }, context) => {
      const unit = requestedUnit ?? "celsius";
      const geocodingBase = configuredUrl(options.geocodingUrl, WEATHER_GEOCODING_URL_ENV);
      const forecastBase = configuredUrl(options.forecastUrl, WEATHER_FORECAST_URL_ENV);
      const geocodingUrl = new URL(geocodingBase ?? DEFAULT_GEOCODING_URL);
      geocodingUrl.searchParams.set("name", city);
      geocodingUrl.searchParams.set("count", "1");
      geocodingUrl.searchParams.set("format", "json");
      const geocoded = await fetchJson(geocodingUrl, {
        ...options,
        signal: context.signal,
        configuredBaseUrl: geocodingBase,
      });
      const place = parseAnswer(geocodingAnswer, geocoded.data, "geocoding").results?.[0];
      if (!place)
        throw new ToolExecutionError("city_not_found", `No city named "${city}" was found`, { retryable: false });

      const forecastUrl = new URL(forecastBase ?? DEFAULT_FORECAST_URL);
      forecastUrl.searchParams.set("latitude", String(place.latitude));
      forecastUrl.searchParams.set("longitude", String(place.longitude));
      forecastUrl.searchParams.set("current", "temperature_2m,precipitation");
      forecastUrl.searchParams.set("temperature_unit", "celsius");
      const forecast = await fetchJson(forecastUrl, {
        ...options,
        signal: context.signal,
        configuredBaseUrl: forecastBase,
      });
      const current = parseAnswer(forecastAnswer, forecast.data, "forecast").current;
      const temperatureC = current.temperature_2m;
      return toolOutput(
        {
          city,
          temperature: unit === "fahrenheit" ? Math.round(((temperatureC * 9) / 5 + 32) * 10) / 10 : temperatureC,
          precipitation_mm: current.precipitation,
          unit,
        },
        { source: forecast.url },
      );
    },
  });
}

import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition, toolOutput } from "../define-tool";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { UpstreamError } from "../errors/upstream-error";
import { configuredUrl, fetchJson } from "../http/fetch-json";
import type { HttpToolOptions } from "../http/http-tool-options";

/** Environment variable overriding the Frankfurter base URL (e.g. `http://127.0.0.1:4020/v2`). */
export const CURRENCY_URL_ENV = "TRELLIS_CURRENCY_URL";
/** Public Frankfurter v2 API (no API key). */
export const DEFAULT_CURRENCY_URL = "https://api.frankfurter.dev/v2";

/** Options for {@link createConvertCurrencyTool}. */
export interface CurrencyToolOptions extends HttpToolOptions {
  /** Frankfurter base URL; `TRELLIS_CURRENCY_URL` or the public API by default. */
  baseUrl?: string;
}

const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
  .transform((code) => code.toUpperCase());

// v2 answers { rate }, v1 answers { rates: { USD: ... } }; accept both so either base URL works.
const rateAnswer = z.object({
  rate: z.number().optional(),
  rates: z.record(z.string(), z.number()).optional(),
  date: z.string().optional(),
});

/**
 * `convert_currency({ amount, from_currency, to_currency })` with Frankfurter's reference rates,
 * answering `{ amount, from_currency, to_currency, converted_amount, rate }`: exactly seed 003's
 * schema. The old names `from` / `to` are still accepted (saved workflows; see the
 * `v2-seed-003-currency-arguments` document migration). Read-only.
 */
export function createConvertCurrencyTool(options: CurrencyToolOptions = {}): ToolDefinition {
  return defineTool({
    name: "convert_currency",
    description: "Convert an amount from one currency to another",
    parameters: z.object({
      amount: z.number().describe("The amount to convert"),
      from_currency: currencyCode.describe("The source currency code, e.g. EUR"),
      to_currency: currencyCode.describe("The target currency code, e.g. USD"),
    }),
    argumentAliases: { from: "from_currency", to: "to_currency" },
    readOnly: true,
    timeoutMs: 20_000,
    execute: async ({ amount, from_currency: from, to_currency: to }, context) => {
      const base = configuredUrl(options.baseUrl, CURRENCY_URL_ENV);
      const baseUrl = (base ?? DEFAULT_CURRENCY_URL).replace(/\/+$/, "");
      const url = new URL(`${baseUrl}/rate/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
      const answer = await fetchJson(url, {
        ...options,
        signal: context.signal,
        configuredBaseUrl: base,
        acceptStatuses: [404, 422],
      });
      if (answer.status === 404 || answer.status === 422) {
        throw new ToolExecutionError("unknown_currency", `No exchange rate from ${from} to ${to}`, {
          retryable: false,
        });
      }
      const parsed = rateAnswer.safeParse(answer.data);
      const rate = parsed.success ? (parsed.data.rate ?? parsed.data.rates?.[to]) : undefined;
      if (rate === undefined) throw new UpstreamError(`Unexpected currency answer from ${url.host}`);
      return toolOutput(
        {
          amount,
          from_currency: from,
          to_currency: to,
          converted_amount: Math.round(amount * rate * 100) / 100,
          rate,
        },
        { source: answer.url },
      );
    },
  });
}

import "server-only";
import { z } from "zod";
import type { StoredProvider } from "../db/provider-repository";
import { createModelResolver } from "../llm/model-resolver";
import { allowlistFromEnvironment } from "../tools/http/allowlist";
import { safeFetch } from "../tools/http/safe-fetch";
import { type AddressLookup, systemLookup, vetDestination } from "../tools/http/ssrf-guard";

/** Outcome of testing a provider. */
export type ProviderCheckResult =
  | { ok: true; method: "models"; models: string[] }
  | { ok: true; method: "completion"; model: string; reply: string }
  | { ok: false; error: { code: string; message: string; hint?: string } };

/** Options for {@link checkProvider}. */
export interface ProviderCheckOptions {
  /** Provider name used in messages. */
  name: string;
  /** Model for the 1-token call when `/models` is not available; the provider's first model by default. */
  model?: string;
  /** Deadline for each of the two attempts; 10 s by default. */
  timeoutMs?: number;
  /** Fetch of the `/models` listing (tests); by default the SSRF-guarded fetch of the HTTP tools. The 1-token call always uses the guarded one. */
  fetch?: typeof fetch;
  /** DNS resolver for the SSRF guard (tests). */
  lookup?: AddressLookup;
}

/**
 * `safeFetch` (SSRF guard with the TRELLIS_HTTP_ALLOWLIST, pinned address, every redirect hop
 * re-checked, size cap) behind the fetch signature: both the `/models` listing and the SDK's
 * 1-token call go through it, so neither can be pointed (or redirected) at loopback or the
 * internal network.
 */
function guardedFetch(lookup?: AddressLookup): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input;
    const body = typeof init.body === "string" || init.body instanceof Uint8Array ? init.body : undefined;
    const answer = await safeFetch(url, {
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      ...(body !== undefined ? { body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      ...(lookup ? { lookup } : {}),
    });
    return new Response(answer.status === 204 || answer.status === 304 ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  }) as typeof fetch;
}

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const base = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${base} (${cause.code})` : base;
}

function requestHeaders(provider: StoredProvider): Record<string, string> {
  return {
    accept: "application/json",
    ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}),
    ...(provider.headers ?? {}),
  };
}

/**
 * Checks that a provider answers: first `GET {baseURL}/models` (cheap, lists what the picker can
 * offer); when that endpoint is missing, a 1-token chat call through the model resolver. Both
 * are time-bounded, and the errors say what to fix (URL, key, model) without echoing secrets.
 */
export async function checkProvider(
  provider: StoredProvider,
  options: ProviderCheckOptions,
): Promise<ProviderCheckResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch = options.fetch ?? guardedFetch(options.lookup);
  const url = new URL(`${provider.baseURL.replace(/\/+$/, "")}/models`);
  for (const [name, value] of Object.entries(provider.query ?? {})) url.searchParams.set(name, value);
  // The same guard as the HTTP tools: the Test button must not probe loopback or the internal
  // network for whoever may edit providers, unless TRELLIS_HTTP_ALLOWLIST lets that host in.
  try {
    await vetDestination(url, { allowlist: allowlistFromEnvironment(), lookup: options.lookup ?? systemLookup });
  } catch (error) {
    return {
      ok: false,
      error: {
        code: "provider_address_blocked",
        message: `${url.origin} may not be contacted: ${error instanceof Error ? error.message : String(error)}.`,
        hint: "A model server on this machine or network must be listed in TRELLIS_HTTP_ALLOWLIST (host or host:port).",
      },
    };
  }
  let listingProblem: string;
  try {
    const response = await doFetch(url, { headers: requestHeaders(provider), signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 401 || response.status === 403) {
      return {
        ok: false,
        error: {
          code: "provider_auth_failed",
          message: `${url.origin} refused the credentials (HTTP ${response.status}).`,
          hint: "Check the API key and any extra headers.",
        },
      };
    }
    if (response.ok) {
      const parsed = modelListSchema.safeParse(await response.json().catch(() => null));
      if (parsed.success)
        return { ok: true, method: "models", models: parsed.data.data.map((model) => model.id).sort() };
      listingProblem = "GET /models answered, but not with an OpenAI-style model list";
    } else listingProblem = `GET /models answered HTTP ${response.status}`;
  } catch (error) {
    return {
      ok: false,
      error: {
        code: "provider_unreachable",
        message: `Could not reach ${url.origin}: ${reasonOf(error)}.`,
        hint: "Check the base URL (it usually ends in /v1) and that the server is running.",
      },
    };
  }
  const model = options.model ?? provider.models?.[0];
  if (!model) {
    return {
      ok: false,
      error: {
        code: "provider_check_failed",
        message: `${listingProblem}; add a model id to try a 1-token call instead.`,
      },
    };
  }
  const resolver = createModelResolver({
    env: {},
    // The SDK's call goes through the same guard as the listing (redirects included).
    // (never the injected listing fetch: no caller can send this call around the guard).
    loadProvider: async () => ({ ...provider, fetch: guardedFetch(options.lookup) }),
    retry: { maxAttempts: 1 },
  });
  try {
    const languageModel = await resolver.resolve({ provider: options.name, model });
    const response = await languageModel.generate({
      messages: [{ role: "user", content: "Reply with OK." }],
      maxTokens: 1,
      timeoutMs,
    });
    return { ok: true, method: "completion", model, reply: response.text };
  } catch (error) {
    const code =
      typeof (error as { code?: unknown }).code === "string"
        ? (error as { code: string }).code
        : "provider_check_failed";
    const hint = (error as { hint?: unknown }).hint;
    return {
      ok: false,
      error: {
        code,
        message: `${listingProblem}, and a 1-token call to "${model}" failed: ${reasonOf(error)}`,
        hint: typeof hint === "string" ? hint : undefined,
      },
    };
  }
}

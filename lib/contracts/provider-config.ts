import { z } from "zod";
import { secretEntryInputSchema } from "./tool-source-config";

/**
 * Shapes of named OpenAI-compatible model providers: what the settings API accepts and what the
 * browser sees (the API key and header values are write-only). Isomorphic: routes and forms share it.
 */

/** Names the model resolver reserves for the environment provider and the demo model. */
export const RESERVED_PROVIDER_NAMES = ["default", "demo"] as const;

/** A provider's name: what node configs save as `provider`, so it cannot change after creation. */
export const providerNameSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/, "Use 1-64 letters, digits, _ . or -, starting with a letter or digit")
  .refine(
    (name) => !(RESERVED_PROVIDER_NAMES as readonly string[]).includes(name.toLowerCase()),
    "default and demo are reserved provider names",
  );

/** A model id as providers spell them (`gpt-4o-mini`, `llama3.1:8b`, `meta-llama/Llama-3-70b`). */
export const modelIdSchema = z
  .string()
  .trim()
  .min(1, "Enter a model id")
  .max(200)
  .regex(/^[^\s]+$/, "Model ids have no spaces");

/** The per-model profile fields the settings page may override (the rest come from the built-in table). */
export const profileOverrideSchema = z.strictObject({
  toolCalls: z.boolean().optional(),
  parallelToolCalls: z.boolean().optional(),
  stopSequences: z.boolean().optional(),
  jsonMode: z.boolean().optional(),
  contextWindow: z.number().int().positive().max(100_000_000).optional(),
  inputPricePerMillion: z.number().nonnegative().max(100_000).optional(),
  outputPricePerMillion: z.number().nonnegative().max(100_000).optional(),
});

/** Per-model overrides. */
export type ProfileOverride = z.infer<typeof profileOverrideSchema>;

/** The most a provider's attempt bound may be (one hour), so a typo cannot park runs for days. */
export const MAX_PROVIDER_TIMEOUT_MS = 3_600_000;

/**
 * Per-attempt time bounds of a provider's model calls. Empty fields keep the defaults: 60 s to the
 * first streamed byte and 300 s per attempt. A node's own `modelTimeouts` win over these.
 */
export const providerTimeoutsSchema = z.strictObject({
  firstByteMs: z.number().int().positive().max(MAX_PROVIDER_TIMEOUT_MS).optional(),
  totalMs: z.number().int().positive().max(MAX_PROVIDER_TIMEOUT_MS).optional(),
});

/** A provider's attempt bounds. */
export type ProviderTimeouts = z.infer<typeof providerTimeoutsSchema>;

/** Body for creating or replacing a provider. */
export const providerInputSchema = z.object({
  name: providerNameSchema,
  baseURL: z.url({
    protocol: /^https?$/,
    error: "Enter the endpoint's absolute http(s) base URL, e.g. https://api.openai.com/v1",
  }),
  /** Absent keeps the stored key (write-only field); an empty string stores no key (local servers). */
  apiKey: z.string().max(10_000).optional(),
  /** Extra headers (Azure `api-key`, gateways); values are write-only like the key. */
  headers: z.array(secretEntryInputSchema).max(50).default([]),
  /** Extra query parameters (Azure `api-version`); not secret. */
  query: z.record(z.string().min(1).max(200), z.string().max(2000)).default({}),
  /** Models offered in the model picker. */
  models: z.array(modelIdSchema).max(500).default([]),
  /** Profile overrides by model id. */
  profiles: z.record(modelIdSchema, profileOverrideSchema).default({}),
  /** Per-attempt time bounds; empty keeps the defaults (60 s first byte, 300 s per attempt). */
  attemptTimeouts: providerTimeoutsSchema.default({}),
});

/** A provider as submitted. */
export type ProviderInput = z.infer<typeof providerInputSchema>;

/** A provider as the browser sees it. */
export interface ProviderView {
  /** Unique name; what node configs reference. */
  name: string;
  /** Base URL including the version path. */
  baseURL: string;
  /** Whether an API key is stored (the key itself never leaves the server). */
  hasApiKey: boolean;
  /** Extra header names; their values are write-only. */
  headers: { name: string; hasValue: boolean }[];
  /** Extra query parameters. */
  query: Record<string, string>;
  /** Models offered in the picker. */
  models: string[];
  /** Profile overrides by model id. */
  profiles: Record<string, ProfileOverride>;
  /** Per-attempt time bounds set for this provider (absent fields use the defaults). */
  attemptTimeouts: ProviderTimeouts;
  /** ISO time of the last change. */
  updatedAt: string;
}

import "server-only";
import { z } from "zod";
import {
  type ProfileOverride,
  type ProviderInput,
  type ProviderTimeouts,
  type ProviderView,
  profileOverrideSchema,
  providerTimeoutsSchema,
} from "../contracts/provider-config";
import { TrellisError } from "../workflow/errors";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";
import { decryptSecret, encryptSecret } from "./secret-box";

/** A model provider as stored: non-secret settings plus the decrypted API key and headers. */
export interface StoredProvider {
  /** Base URL of the OpenAI-compatible endpoint. */
  baseURL: string;
  /** API key (decrypted). */
  apiKey: string;
  /** Extra headers (e.g. Azure api-key), decrypted. */
  headers?: Record<string, string>;
  /** Extra query parameters (e.g. Azure api-version). */
  query?: Record<string, string>;
  /** Per-model profile overrides. */
  profiles?: Record<string, ProfileOverride>;
  /** Models offered in the model picker. */
  models?: string[];
  /** Per-attempt time bounds of this provider's model calls. */
  attemptTimeouts?: ProviderTimeouts;
}

/** A provider name that does not exist in the workspace. Code `provider_not_found` (404). */
export class ProviderNotFoundError extends TrellisError {
  constructor(name: string) {
    super("provider_not_found", `Model provider "${name}" does not exist.`);
  }
}

/** The name is taken by another provider (or credential). Code `provider_name_taken`. */
export class ProviderNameTakenError extends TrellisError {
  /** Points the form at the name field. */
  readonly issues = [{ path: "name", message: "This name is already used." }];

  constructor(name: string) {
    super("provider_name_taken", `A provider named "${name}" already exists.`);
  }
}

/** A submitted provider is incomplete (e.g. a new header without a value). Code `provider_invalid`. */
export class InvalidProviderError extends TrellisError {
  /** Field and problem, in the shape `parseBody` uses for 400s. */
  readonly issues: { path: string; message: string }[];

  constructor(path: string, problem: string) {
    super("provider_invalid", `${path}: ${problem}`);
    this.issues = [{ path, message: problem }];
  }
}

const storedSettingsSchema = z.object({
  baseURL: z.string().default(""),
  /** Written by earlier versions: header values in the clear. */
  headers: z.record(z.string(), z.string()).optional(),
  /** Header values, encrypted (they often carry keys, e.g. Azure `api-key`). */
  encryptedHeaders: z.string().optional(),
  query: z.record(z.string(), z.string()).default({}),
  models: z.array(z.string()).default([]),
  profiles: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  attemptTimeouts: z.unknown().optional(),
});

/** Reading is lenient where writing is strict: unknown fields are stripped. */
const storedProfileSchema = z.object(profileOverrideSchema.shape);

type ProviderRow = { name: string; kind: string; settings: unknown; secret: string; updatedAt: Date };

function decodeRow(row: ProviderRow): StoredProvider {
  const settings = storedSettingsSchema.parse(asRecord(row.settings));
  const headers = settings.encryptedHeaders
    ? z.record(z.string(), z.string()).parse(JSON.parse(decryptSecret(settings.encryptedHeaders)))
    : (settings.headers ?? {});
  const profiles: Record<string, ProfileOverride> = {};
  for (const [model, profile] of Object.entries(settings.profiles)) {
    // Unknown fields from older versions are dropped rather than failing the whole provider.
    const parsed = storedProfileSchema.safeParse(profile);
    profiles[model] = parsed.success ? parsed.data : {};
  }
  return {
    baseURL: settings.baseURL,
    apiKey: decryptSecret(row.secret),
    headers,
    query: settings.query,
    profiles,
    models: settings.models,
    // Lenient like profiles: a malformed stored value falls back to the defaults.
    attemptTimeouts: providerTimeoutsSchema.safeParse(settings.attemptTimeouts ?? {}).data ?? {},
  };
}

function encodeSettings(provider: StoredProvider) {
  return toJson({
    baseURL: provider.baseURL,
    encryptedHeaders: encryptSecret(JSON.stringify(provider.headers ?? {})),
    query: provider.query ?? {},
    models: provider.models ?? [],
    profiles: provider.profiles ?? {},
    attemptTimeouts: provider.attemptTimeouts ?? {},
  });
}

/** Saves (creates or replaces) a model provider; the API key and header values are encrypted at rest. */
export async function saveProvider(workspaceId: string, name: string, provider: StoredProvider): Promise<void> {
  const existing = await database().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (existing && existing.kind !== "llm-provider") throw new ProviderNameTakenError(name);
  const data = { settings: encodeSettings(provider), secret: encryptSecret(provider.apiKey) };
  await database().credential.upsert({
    where: { workspaceId_name: { workspaceId, name } },
    create: { workspaceId, name, kind: "llm-provider", ...data },
    update: data,
  });
}

async function findProviderRow(workspaceId: string, name: string) {
  const row = await database().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  return row?.kind === "llm-provider" ? row : null;
}

/** Loads a model provider by name (decrypted), or null. */
export async function loadProvider(workspaceId: string, name: string): Promise<StoredProvider | null> {
  const row = await findProviderRow(workspaceId, name);
  return row ? decodeRow(row) : null;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Merges a submitted provider with the stored one: a missing API key or header value keeps the
 * stored value, so the write-only fields need not be re-entered on every edit. When the base URL
 * moves to another origin, stored secrets are not carried along (they would be sent to a new
 * server): they must be entered again.
 * @throws InvalidProviderError for a missing value.
 */
export function mergeProviderInput(input: ProviderInput, previous: StoredProvider | null): StoredProvider {
  const reusable = previous && originOf(previous.baseURL) === originOf(input.baseURL) ? previous : null;
  const movedAway = previous !== null && reusable === null;
  const headers: Record<string, string> = {};
  input.headers.forEach((entry, index) => {
    const value = entry.value ?? reusable?.headers?.[entry.name];
    if (value === undefined) {
      throw new InvalidProviderError(
        `headers[${index}].value`,
        movedAway ? `the base URL changed: enter "${entry.name}" again` : `enter a value for "${entry.name}"`,
      );
    }
    headers[entry.name] = value;
  });
  if (input.apiKey === undefined && movedAway && previous.apiKey !== "") {
    throw new InvalidProviderError("apiKey", "the base URL changed: enter the API key again");
  }
  return {
    baseURL: input.baseURL.replace(/\/+$/, ""),
    apiKey: input.apiKey ?? reusable?.apiKey ?? "",
    headers,
    query: input.query,
    models: [...new Set(input.models)],
    profiles: input.profiles,
    attemptTimeouts: input.attemptTimeouts,
  };
}

/**
 * Creates a provider (`mode: "create"` refuses an existing name) or replaces one (`"update"`
 * requires it to exist). @throws ProviderNameTakenError, ProviderNotFoundError, InvalidProviderError
 */
export async function upsertProvider(
  workspaceId: string,
  input: ProviderInput,
  mode: "create" | "update",
): Promise<ProviderView> {
  const existing = await database().credential.findUnique({
    where: { workspaceId_name: { workspaceId, name: input.name } },
  });
  if (mode === "create" && existing) throw new ProviderNameTakenError(input.name);
  if (mode === "update" && existing?.kind !== "llm-provider") throw new ProviderNotFoundError(input.name);
  const previous = existing ? decodeRow(existing) : null;
  await saveProvider(workspaceId, input.name, mergeProviderInput(input, previous));
  const saved = await getProviderView(workspaceId, input.name);
  if (!saved) throw new ProviderNotFoundError(input.name);
  return saved;
}

function toView(row: ProviderRow): ProviderView {
  const provider = decodeRow(row);
  return {
    name: row.name,
    baseURL: provider.baseURL,
    hasApiKey: provider.apiKey !== "",
    headers: Object.keys(provider.headers ?? {}).map((name) => ({ name, hasValue: true })),
    query: provider.query ?? {},
    models: provider.models ?? [],
    profiles: provider.profiles ?? {},
    attemptTimeouts: provider.attemptTimeouts ?? {},
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One provider for the browser (no secrets), or null. */
export async function getProviderView(workspaceId: string, name: string): Promise<ProviderView | null> {
  const row = await findProviderRow(workspaceId, name);
  return row ? toView(row) : null;
}

/** A workspace's providers for the browser (no secrets), by name. */
export async function listProviders(workspaceId: string): Promise<ProviderView[]> {
  const rows = await database().credential.findMany({
    where: { workspaceId, kind: "llm-provider" },
    orderBy: { name: "asc" },
  });
  return rows.map(toView);
}

/** Names of a workspace's stored model providers (never the secrets). */
export async function listProviderNames(workspaceId: string): Promise<string[]> {
  const rows = await database().credential.findMany({
    where: { workspaceId, kind: "llm-provider" },
    select: { name: true },
    orderBy: { name: "asc" },
  });
  return rows.map((row) => row.name);
}

/** Deletes a provider. @throws ProviderNotFoundError */
export async function deleteProvider(workspaceId: string, name: string): Promise<void> {
  const { count } = await database().credential.deleteMany({ where: { workspaceId, name, kind: "llm-provider" } });
  if (count === 0) throw new ProviderNotFoundError(name);
}

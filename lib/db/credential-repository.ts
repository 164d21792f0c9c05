import "server-only";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";
import { decryptSecret, encryptSecret } from "./secret-box";

/** A model provider as stored: non-secret settings plus the decrypted API key. */
export interface StoredProvider {
  /** Base URL of the OpenAI-compatible endpoint. */
  baseURL: string;
  /** API key (decrypted). */
  apiKey: string;
  /** Extra headers (e.g. Azure api-key). */
  headers?: Record<string, string>;
  /** Per-model profile overrides. */
  profiles?: Record<string, Record<string, unknown>>;
}

/** Saves (creates or replaces) a model provider; the API key is encrypted at rest. */
export async function saveProvider(workspaceId: string, name: string, provider: StoredProvider): Promise<void> {
  const { apiKey, ...settings } = provider;
  await database().credential.upsert({
    where: { workspaceId_name: { workspaceId, name } },
    create: { workspaceId, name, kind: "llm-provider", settings: toJson(settings), secret: encryptSecret(apiKey) },
    update: { settings: toJson(settings), secret: encryptSecret(apiKey) },
  });
}

/** Loads a model provider by name, or null. */
export async function loadProvider(workspaceId: string, name: string): Promise<StoredProvider | null> {
  const row = await database().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (row?.kind !== "llm-provider") return null;
  const settings = asRecord(row.settings);
  return {
    baseURL: String(settings.baseURL ?? ""),
    apiKey: decryptSecret(row.secret),
    headers: asRecord(settings.headers) as Record<string, string>,
    profiles: asRecord(settings.profiles) as Record<string, Record<string, unknown>>,
  };
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

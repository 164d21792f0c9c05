import "server-only";
import { listHttpCredentials, resolveHttpCredential } from "../db/http-credential-repository";
import { listProviderNames, loadProvider, type StoredProvider } from "../db/provider-repository";
import { listResolvedToolSources } from "../db/tool-source-repository";
import { workspaceSecretsStamp } from "../db/workspace-secrets-stamp";
import { workspaceVariableValues } from "../db/workspace-variable-repository";
import { registerLogSecrets } from "./log-redaction";

/**
 * A workspace's stored secrets, variables and providers as one cached snapshot, for every run's
 * redactor, `{{env.*}}` and model resolution. Loading them means reading and decrypting every
 * credential and tool source: per run that was most of a run's database reads. The snapshot is
 * reused while the workspace's stamp (row counts and newest `updatedAt` of its credentials, tool
 * sources and variables, one query, see lib/db/workspace-secrets-stamp) is unchanged, so a secret
 * saved by any process is masked from the very next run on. A snapshot whose newest change is
 * less than {@link FRESH_CHANGE_MS} old is not reused: two writes in the same millisecond would
 * not move the stamp.
 */
export interface WorkspaceSecretsSnapshot {
  /** Every stored secret value (provider keys and header values, HTTP credential secrets, OpenAPI tokens, MCP env and headers). */
  secrets: readonly string[];
  /** The workspace's variables, name → value. */
  variables: Readonly<Record<string, string>>;
  /** The workspace's model providers by name, decrypted. */
  providers: ReadonlyMap<string, StoredProvider>;
}

/** A snapshot is reused only when its newest change is older than this at load time. */
export const FRESH_CHANGE_MS = 2_000;
/** Most workspaces kept by default; the least recently used one is dropped beyond this. */
export const MAX_CACHED_WORKSPACES = 1_000;
let maxCachedWorkspaces = MAX_CACHED_WORKSPACES;

/** Sets the cache bound (tests); returns the previous one. */
export function setMaxCachedWorkspaces(limit: number): number {
  const previous = maxCachedWorkspaces;
  maxCachedWorkspaces = limit;
  return previous;
}

interface CacheEntry {
  key: string;
  reusable: boolean;
  snapshot: Promise<WorkspaceSecretsSnapshot>;
}

// One cache per process (route handlers and instrumentation are bundled apart: share it on globalThis).
const CACHE_KEY = Symbol.for("trellis.workspace-secrets-cache");
const holder = globalThis as unknown as Record<symbol, Map<string, CacheEntry> | undefined>;
function cache(): Map<string, CacheEntry> {
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

async function loadSnapshot(workspaceId: string): Promise<WorkspaceSecretsSnapshot> {
  const secrets: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.trim() !== "") secrets.push(value);
  };
  const providers = new Map<string, StoredProvider>();
  for (const name of await listProviderNames(workspaceId).catch(() => [] as string[])) {
    const provider = await loadProvider(workspaceId, name).catch(() => null);
    if (!provider) continue;
    providers.set(name, provider);
    add(provider.apiKey);
    for (const value of Object.values(provider.headers ?? {})) add(value);
  }
  const credentials = await listHttpCredentials(workspaceId).catch(() => []);
  for (const credential of credentials) {
    const auth = await resolveHttpCredential(workspaceId, credential.name).catch(() => undefined);
    add(auth?.secret);
    // HTTP Basic travels base64-encoded: an upstream echoing the header echoes that form.
    if (auth?.type === "basic") add(Buffer.from(`${auth.username ?? ""}:${auth.secret}`).toString("base64"));
  }
  const sources = await listResolvedToolSources(workspaceId).catch(() => []);
  for (const source of sources) {
    add(source.secrets.token);
    for (const value of Object.values(source.secrets.env ?? {})) add(value);
    for (const value of Object.values(source.secrets.headers ?? {})) add(value);
  }
  // Variables are not optional: a database failure fails the run's start, not silently an empty value.
  const variables = await workspaceVariableValues(workspaceId);
  // What a run must not record, the server log must not print either.
  registerLogSecrets(secrets);
  return { secrets, variables, providers };
}

/**
 * The workspace's current snapshot: cached while its stamp is unchanged, else loaded again.
 * @throws what the database throws for the stamp or the variables (the run's start fails).
 */
export async function workspaceSecretsSnapshot(workspaceId: string): Promise<WorkspaceSecretsSnapshot> {
  const stamp = await workspaceSecretsStamp(workspaceId);
  const entries = cache();
  const cached = entries.get(workspaceId);
  if (cached && cached.key === stamp.key && cached.reusable) {
    entries.delete(workspaceId);
    entries.set(workspaceId, cached);
    return cached.snapshot;
  }
  const snapshot = loadSnapshot(workspaceId);
  const entry: CacheEntry = {
    key: stamp.key,
    reusable: Date.now() - stamp.newestChangeAt >= FRESH_CHANGE_MS,
    snapshot,
  };
  entries.delete(workspaceId);
  entries.set(workspaceId, entry);
  // A failed load is not kept.
  snapshot.catch(() => {
    if (entries.get(workspaceId) === entry) entries.delete(workspaceId);
  });
  for (const [oldest] of entries) {
    if (entries.size <= maxCachedWorkspaces) break;
    entries.delete(oldest);
  }
  return snapshot;
}

/** Workspaces with a cached snapshot (tests: the cache is bounded). */
export function cachedWorkspaceCount(): number {
  return cache().size;
}

/**
 * Every stored secret value of a workspace, for a redactor, plus the default provider's key from
 * the environment. A secret that cannot be read is skipped (the run would fail on it anyway);
 * the list never leaves the server.
 */
export async function workspaceSecrets(
  workspaceId: string,
  environment: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  return snapshotSecrets(await workspaceSecretsSnapshot(workspaceId), environment);
}

/** A snapshot's secrets plus the default provider's key from the environment (a new array). */
export function snapshotSecrets(
  snapshot: WorkspaceSecretsSnapshot,
  environment: Record<string, string | undefined> = process.env,
): string[] {
  const fromEnvironment = environment.OPENAI_API_KEY;
  return typeof fromEnvironment === "string" && fromEnvironment.trim() !== ""
    ? [fromEnvironment, ...snapshot.secrets]
    : [...snapshot.secrets];
}

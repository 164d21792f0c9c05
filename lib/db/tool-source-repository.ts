import "server-only";
import {
  type McpToolSnapshot,
  type StoredMcpConfig,
  type StoredOpenApiConfig,
  storedMcpConfigSchema,
  storedOpenApiConfigSchema,
  type ToolSourceInput,
  type ToolSourceSecrets,
  type ToolSourceView,
  toolSourceSecretsSchema,
} from "../contracts/tool-source-config";
import { toJson } from "./json";
import { type Database, database } from "./prisma-client";
import { decryptSecret, encryptSecret } from "./secret-box";
import { InvalidToolSourceError, ToolSourceNameTakenError, ToolSourceNotFoundError } from "./tool-source-errors";

/** A stored source as parsed from its row, before its secrets are read. */
type ParsedToolSource = {
  /** Row id. */
  id: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Unique name; the picker's source label. */
  name: string;
  /** Last change of the row. */
  updatedAt: Date;
} & ({ kind: "openapi"; config: StoredOpenApiConfig } | { kind: "mcp"; config: StoredMcpConfig });

/** A stored source with its secrets decrypted: only the server's tool builder may hold one. */
export type ResolvedToolSource = ParsedToolSource & {
  /** Decrypted secrets (empty when the source has none). */
  secrets: ToolSourceSecrets;
};

type Transaction = Parameters<Parameters<Database["$transaction"]>[0]>[0];
type ToolSourceRow = Awaited<ReturnType<Database["toolSource"]["findFirstOrThrow"]>>;

const EMPTY_SECRETS: ToolSourceSecrets = { env: {}, headers: {} };

/** The Credential row holding a source's secrets; the colon keeps it apart from provider names. */
function credentialName(sourceId: string): string {
  return `tool-source:${sourceId}`;
}

function parseRow(row: ToolSourceRow): ParsedToolSource {
  const base = { id: row.id, workspaceId: row.workspaceId, name: row.name, updatedAt: row.updatedAt };
  if (row.kind === "openapi") return { ...base, kind: "openapi", config: storedOpenApiConfigSchema.parse(row.config) };
  if (row.kind === "mcp") return { ...base, kind: "mcp", config: storedMcpConfigSchema.parse(row.config) };
  throw new InvalidToolSourceError("kind", `unknown tool source kind "${row.kind}"`);
}

async function readSecrets(client: Database | Transaction, credentialId: string | null): Promise<ToolSourceSecrets> {
  if (!credentialId) return EMPTY_SECRETS;
  const credential = await client.credential.findUnique({ where: { id: credentialId } });
  if (!credential) return EMPTY_SECRETS;
  return toolSourceSecretsSchema.parse(JSON.parse(decryptSecret(credential.secret)));
}

async function resolveRow(row: ToolSourceRow): Promise<ResolvedToolSource> {
  return { ...parseRow(row), secrets: await readSecrets(database(), row.credentialId) };
}

function toView(source: ResolvedToolSource, createdAt: Date): ToolSourceView {
  const base = {
    id: source.id,
    name: source.name,
    createdAt: createdAt.toISOString(),
    updatedAt: source.updatedAt.toISOString(),
  };
  if (source.kind === "openapi") {
    return { ...base, kind: "openapi", config: { ...source.config, hasSecret: Boolean(source.secrets.token) } };
  }
  const { connection, ...rest } = source.config;
  return {
    ...base,
    kind: "mcp",
    config: {
      ...rest,
      connection:
        connection.transport === "stdio"
          ? {
              transport: "stdio",
              command: connection.command,
              args: connection.args,
              env: connection.envNames.map((name) => ({ name, hasValue: name in source.secrets.env })),
            }
          : {
              transport: "http",
              url: connection.url,
              headers: connection.headerNames.map((name) => ({ name, hasValue: name in source.secrets.headers })),
            },
    },
  };
}

/** Merges submitted secret entries with the stored values: an entry without a value keeps its old one. */
function mergeEntries(
  field: string,
  entries: { name: string; value?: string }[],
  stored: Record<string, string>,
): Record<string, string> {
  const merged: Record<string, string> = {};
  entries.forEach((entry, index) => {
    if (entry.name in merged)
      throw new InvalidToolSourceError(`${field}[${index}].name`, `"${entry.name}" is listed twice`);
    const value = entry.value ?? stored[entry.name];
    if (value === undefined)
      throw new InvalidToolSourceError(`${field}[${index}].value`, `enter a value for "${entry.name}"`);
    merged[entry.name] = value;
  });
  return merged;
}

/**
 * Splits a submitted source into the stored config (no secrets) and the secrets to encrypt.
 * `previous` holds the stored secrets on update, so write-only fields left empty keep their value.
 */
export function splitToolSourceInput(
  input: ToolSourceInput,
  previous: ToolSourceSecrets = EMPTY_SECRETS,
  previousSnapshot: McpToolSnapshot[] = [],
): { config: StoredOpenApiConfig | StoredMcpConfig; secrets: ToolSourceSecrets } {
  if (input.kind === "openapi") {
    const config: StoredOpenApiConfig = {
      spec: input.spec,
      serverUrl: input.serverUrl,
      auth: input.auth,
      readOnlyTools: input.readOnlyTools,
      toolNamePrefix: input.toolNamePrefix || undefined,
    };
    if (input.auth.type === "none") return { config, secrets: EMPTY_SECRETS };
    const token = input.secret || previous.token;
    if (!token) {
      const what = input.auth.type === "bearer" ? "bearer token" : "API key";
      throw new InvalidToolSourceError("secret", `enter the ${what} for this API`);
    }
    return { config, secrets: { ...EMPTY_SECRETS, token } };
  }
  const { connection } = input;
  const shared = {
    readOnlyTools: input.readOnlyTools,
    toolNamePrefix: input.toolNamePrefix || undefined,
    toolsSnapshot: previousSnapshot,
  };
  if (connection.transport === "stdio") {
    const env = mergeEntries("connection.env", connection.env, previous.env);
    return {
      config: {
        ...shared,
        connection: {
          transport: "stdio",
          command: connection.command,
          args: connection.args,
          envNames: Object.keys(env),
        },
      },
      secrets: { env, headers: {} },
    };
  }
  const headers = mergeEntries("connection.headers", connection.headers, previous.headers);
  return {
    config: { ...shared, connection: { transport: "http", url: connection.url, headerNames: Object.keys(headers) } },
    secrets: { env: {}, headers },
  };
}

function hasSecrets(secrets: ToolSourceSecrets): boolean {
  return Boolean(secrets.token) || Object.keys(secrets.env).length > 0 || Object.keys(secrets.headers).length > 0;
}

/** Creates, replaces or removes the source's Credential row; returns its id (or null). */
async function writeSecrets(
  transaction: Transaction,
  workspaceId: string,
  sourceId: string,
  kind: "openapi" | "mcp",
  secrets: ToolSourceSecrets,
): Promise<string | null> {
  const name = credentialName(sourceId);
  if (!hasSecrets(secrets)) {
    await transaction.credential.deleteMany({ where: { workspaceId, name } });
    return null;
  }
  const sealed = encryptSecret(JSON.stringify(secrets));
  const row = await transaction.credential.upsert({
    where: { workspaceId_name: { workspaceId, name } },
    create: {
      workspaceId,
      name,
      kind: kind === "openapi" ? "tool-auth" : "mcp",
      settings: toJson({ toolSourceId: sourceId }),
      secret: sealed,
    },
    update: { secret: sealed },
  });
  return row.id;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

async function findOwnedRow(workspaceId: string, id: string): Promise<ToolSourceRow> {
  const row = await database().toolSource.findFirst({ where: { id, workspaceId } });
  if (!row) throw new ToolSourceNotFoundError(id);
  return row;
}

/** A workspace's tool sources for the browser (secrets reduced to flags), by name. */
export async function listToolSources(workspaceId: string): Promise<ToolSourceView[]> {
  const rows = await database().toolSource.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return Promise.all(rows.map(async (row) => toView(await resolveRow(row), row.createdAt)));
}

/** One source for the browser. @throws ToolSourceNotFoundError */
export async function getToolSource(workspaceId: string, id: string): Promise<ToolSourceView> {
  const row = await findOwnedRow(workspaceId, id);
  return toView(await resolveRow(row), row.createdAt);
}

/** Every source of a workspace with decrypted secrets, for building its tools (server only). */
export async function listResolvedToolSources(workspaceId: string): Promise<ResolvedToolSource[]> {
  const rows = await database().toolSource.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return Promise.all(rows.map(resolveRow));
}

/** One source with decrypted secrets (server only). @throws ToolSourceNotFoundError */
export async function loadResolvedToolSource(workspaceId: string, id: string): Promise<ResolvedToolSource> {
  const row = await findOwnedRow(workspaceId, id);
  return resolveRow(row);
}

/**
 * Creates a source; its secrets go encrypted into a Credential row in the same transaction.
 * @throws ToolSourceNameTakenError, InvalidToolSourceError
 */
export async function createToolSource(workspaceId: string, input: ToolSourceInput): Promise<ToolSourceView> {
  const { config, secrets } = splitToolSourceInput(input);
  try {
    const id = await database().$transaction(async (transaction) => {
      const row = await transaction.toolSource.create({
        data: { workspaceId, kind: input.kind, name: input.name, config: toJson(config) },
      });
      const credentialId = await writeSecrets(transaction, workspaceId, row.id, input.kind, secrets);
      if (credentialId) await transaction.toolSource.update({ where: { id: row.id }, data: { credentialId } });
      return row.id;
    });
    return getToolSource(workspaceId, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ToolSourceNameTakenError(input.name);
    throw error;
  }
}

/** Options for {@link updateToolSource}. */
export interface UpdateToolSourceOptions {
  /**
   * Whether stored secrets may fill fields left empty. The service answers false when the
   * destination changed (another URL or command), so a stored key is never sent somewhere new.
   */
  reuseStoredSecrets?: (previous: ResolvedToolSource) => boolean;
}

/**
 * Replaces a source's settings. Secret fields left out keep their stored values (unless
 * `reuseStoredSecrets` says no); the kind cannot change.
 * @throws ToolSourceNotFoundError, ToolSourceNameTakenError, InvalidToolSourceError
 */
export async function updateToolSource(
  workspaceId: string,
  id: string,
  input: ToolSourceInput,
  options: UpdateToolSourceOptions = {},
): Promise<ToolSourceView> {
  const row = await findOwnedRow(workspaceId, id);
  if (row.kind !== input.kind)
    throw new InvalidToolSourceError("kind", `a ${row.kind} source cannot become ${input.kind}`);
  const existing = parseRow(row);
  const storedSecrets = await readSecrets(database(), row.credentialId);
  const reuse = options.reuseStoredSecrets?.({ ...existing, secrets: storedSecrets }) ?? true;
  const previousSecrets = reuse ? storedSecrets : EMPTY_SECRETS;
  const snapshot = existing.kind === "mcp" ? existing.config.toolsSnapshot : [];
  const { config, secrets } = splitToolSourceInput(input, previousSecrets, snapshot);
  try {
    await database().$transaction(async (transaction) => {
      const credentialId = await writeSecrets(transaction, workspaceId, id, input.kind, secrets);
      await transaction.toolSource.update({
        where: { id },
        data: { name: input.name, config: toJson(config), credentialId },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ToolSourceNameTakenError(input.name);
    throw error;
  }
  return getToolSource(workspaceId, id);
}

/** Sets which of a source's tools are trusted as read-only. @throws ToolSourceNotFoundError */
export async function setReadOnlyTools(
  workspaceId: string,
  id: string,
  readOnlyTools: string[],
): Promise<ToolSourceView> {
  const row = await findOwnedRow(workspaceId, id);
  const existing = parseRow(row);
  const config = { ...existing.config, readOnlyTools: [...new Set(readOnlyTools)].sort() };
  await database().toolSource.update({ where: { id }, data: { config: toJson(config) } });
  return getToolSource(workspaceId, id);
}

/**
 * Remembers the tools an MCP server listed, so they still show (and fail clearly) while it is
 * unreachable. Does nothing when the list is unchanged or the source is gone.
 */
export async function saveMcpToolsSnapshot(workspaceId: string, id: string, tools: McpToolSnapshot[]): Promise<void> {
  const row = await database().toolSource.findFirst({ where: { id, workspaceId, kind: "mcp" } });
  if (!row) return;
  const config = storedMcpConfigSchema.parse(row.config);
  if (JSON.stringify(config.toolsSnapshot) === JSON.stringify(tools)) return;
  await database().toolSource.update({ where: { id }, data: { config: toJson({ ...config, toolsSnapshot: tools }) } });
}

/** Deletes a source and its secrets. @throws ToolSourceNotFoundError */
export async function deleteToolSource(workspaceId: string, id: string): Promise<void> {
  await findOwnedRow(workspaceId, id);
  await database().$transaction(async (transaction) => {
    await transaction.credential.deleteMany({ where: { workspaceId, name: credentialName(id) } });
    await transaction.toolSource.delete({ where: { id } });
  });
}

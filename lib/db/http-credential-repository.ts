import "server-only";
import { z } from "zod";
import {
  HTTP_AUTH_TYPES,
  type HttpCredentialInput,
  type HttpCredentialUpdate,
  type HttpCredentialView,
  httpCredentialInputSchema,
  httpCredentialUpdateSchema,
} from "../contracts/http-credential";
import type { HttpAuth } from "../tools/http/http-auth";
import { TrellisError } from "../workflow/errors";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";
import { decryptSecret, encryptSecret } from "./secret-box";

/** The `Credential.kind` of HTTP credentials (beside model providers and tool-source secrets). */
const KIND = "http-auth";

/** No HTTP credential with that name. Code `http_credential_not_found` (404). */
export class HttpCredentialNotFoundError extends TrellisError {
  constructor(name: string) {
    super("http_credential_not_found", `HTTP credential "${name}" does not exist.`);
  }
}

/** The name is taken (credential names are unique per workspace, across kinds). Code `http_credential_name_taken` (409). */
export class HttpCredentialNameTakenError extends TrellisError {
  /** Points the form at the name field. */
  readonly issues = [{ path: "name", message: "This name is already used." }];

  constructor(name: string) {
    super("http_credential_name_taken", `A credential named "${name}" already exists.`);
  }
}

const storedSettingsSchema = z.object({
  type: z.enum(HTTP_AUTH_TYPES),
  parameter: z.string().default(""),
  username: z.string().default(""),
  /** Absent on credentials stored before the setting existed: those may go anywhere. */
  allowedHosts: z.array(z.string()).optional(),
});

type Row = { name: string; settings: unknown; secret: string; updatedAt: Date };

function toView(row: Row): HttpCredentialView {
  const settings = storedSettingsSchema.parse(asRecord(row.settings));
  return {
    name: row.name,
    type: settings.type,
    detail: settings.type === "basic" ? settings.username : settings.parameter,
    allowedHosts: settings.allowedHosts ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The workspace's HTTP credentials, by name. */
export async function listHttpCredentials(workspaceId: string): Promise<HttpCredentialView[]> {
  const rows = await database().credential.findMany({ where: { workspaceId, kind: KIND }, orderBy: { name: "asc" } });
  return rows.map(toView);
}

/** Stores a new HTTP credential; the secret is encrypted at rest. */
export async function createHttpCredential(
  workspaceId: string,
  input: HttpCredentialInput,
): Promise<HttpCredentialView> {
  const parsed = httpCredentialInputSchema.parse(input);
  const existing = await database().credential.findUnique({
    where: { workspaceId_name: { workspaceId, name: parsed.name } },
  });
  if (existing) throw new HttpCredentialNameTakenError(parsed.name);
  const row = await database().credential.create({
    data: {
      workspaceId,
      name: parsed.name,
      kind: KIND,
      settings: toJson({
        type: parsed.type,
        parameter: parsed.type === "header" || parsed.type === "query" ? parsed.parameter : "",
        username: parsed.type === "basic" ? parsed.username : "",
        allowedHosts: parsed.allowedHosts,
      }),
      secret: encryptSecret(parsed.secret),
    },
  });
  return toView(row);
}

/**
 * Changes where a credential may be sent and, optionally, its secret. Any write seals the secret
 * again, so a row in an older format is upgraded too.
 * @throws HttpCredentialNotFoundError
 */
export async function updateHttpCredential(
  workspaceId: string,
  name: string,
  input: HttpCredentialUpdate,
): Promise<HttpCredentialView> {
  const parsed = httpCredentialUpdateSchema.parse(input);
  const row = await database().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!row || row.kind !== KIND) throw new HttpCredentialNotFoundError(name);
  const settings = storedSettingsSchema.parse(asRecord(row.settings));
  const updated = await database().credential.update({
    where: { id: row.id },
    data: {
      settings: toJson({ ...settings, allowedHosts: parsed.allowedHosts }),
      secret: encryptSecret(parsed.secret ?? decryptSecret(row.secret)),
    },
  });
  return toView(updated);
}

/** Deletes an HTTP credential; workflows naming it fail with `credential_not_found` until changed. */
export async function deleteHttpCredential(workspaceId: string, name: string): Promise<void> {
  const { count } = await database().credential.deleteMany({ where: { workspaceId, name, kind: KIND } });
  if (count === 0) throw new HttpCredentialNotFoundError(name);
}

/** The decrypted credential for a run, or undefined when the workspace has none with that name. */
export async function resolveHttpCredential(workspaceId: string, name: string): Promise<HttpAuth | undefined> {
  const row = await database().credential.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!row || row.kind !== KIND) return undefined;
  const settings = storedSettingsSchema.parse(asRecord(row.settings));
  return {
    credential: row.name,
    type: settings.type,
    ...(settings.parameter ? { name: settings.parameter } : {}),
    ...(settings.username ? { username: settings.username } : {}),
    ...(settings.allowedHosts ? { allowedHosts: settings.allowedHosts } : {}),
    secret: decryptSecret(row.secret),
  };
}

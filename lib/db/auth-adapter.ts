import "server-only";
import crypto from "node:crypto";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { type Database, providerOf } from "./prisma-client";

/** What better-auth's `database` option takes: an adapter factory over its options. */
export type AuthDatabase = ReturnType<typeof prismaAdapter>;
type AuthAdapter = ReturnType<AuthDatabase>;

/** The adapter calls whose argument carries a `where` list (and some an `update` object). */
const WHERE_METHODS = [
  "findOne",
  "findMany",
  "count",
  "update",
  "updateMany",
  "delete",
  "deleteMany",
  "consumeOne",
  "incrementOne",
] as const;

/**
 * SHA-256 (base64url) of a session token: what the `Session.token` column holds, so a copy of the
 * table cannot be replayed as cookies (better-auth itself stores the raw token).
 */
export function sessionTokenHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("base64url");
}

/**
 * better-auth's Prisma adapter on our client (SQLite or PostgreSQL as the client was made for),
 * wrapped so session tokens are hashed at rest.
 */
export function authDatabase(client: Database): AuthDatabase {
  const base = prismaAdapter(client, { provider: providerOf(client) === "postgresql" ? "postgresql" : "sqlite" });
  return (options) => withSessionTokenHash(base(options));
}

interface WhereClause {
  field: string;
  value: unknown;
  operator?: string;
}

function hashValue(value: unknown): unknown {
  if (typeof value === "string") return sessionTokenHash(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? sessionTokenHash(item) : item));
  return value;
}

function hashWhere(where: WhereClause[] | undefined): WhereClause[] | undefined {
  return where?.map((clause) => (clause.field === "token" ? { ...clause, value: hashValue(clause.value) } : clause));
}

/** The raw token a `where` looks a single session up by (`token = …`), to hand back on its row. */
function rawTokenOf(where: WhereClause[] | undefined): string | undefined {
  const clause = where?.find((item) => item.field === "token" && (item.operator ?? "eq") === "eq");
  return typeof clause?.value === "string" ? clause.value : undefined;
}

/**
 * Hashes `token` on the way into the `session` model (create data, every `where` on it, updates)
 * and gives better-auth back the raw token where it asked by it, so its cookie carries the raw one
 * (the KeeperHub approach, "wrapWithSessionTokenHash"). Transactions get the same wrapping.
 */
export function withSessionTokenHash<Adapter extends AuthAdapter>(adapter: Adapter): Adapter {
  const wrapped: Record<string, unknown> = { ...adapter };
  const methods = adapter as unknown as Record<string, (argument: Record<string, unknown>) => Promise<unknown>>;
  wrapped.create = async (argument: { model: string; data: Record<string, unknown> }) => {
    if (argument.model !== "session" || typeof argument.data.token !== "string") return methods.create(argument);
    const raw = argument.data.token;
    const row = (await methods.create({
      ...argument,
      data: { ...argument.data, token: sessionTokenHash(raw) },
    })) as Record<string, unknown> | null;
    return row && "token" in row ? { ...row, token: raw } : row;
  };
  for (const name of WHERE_METHODS) {
    if (typeof methods[name] !== "function") continue;
    wrapped[name] = async (argument: { model: string; where?: WhereClause[]; update?: Record<string, unknown> }) => {
      if (argument.model !== "session") return methods[name](argument);
      const update =
        argument.update && typeof argument.update.token === "string"
          ? { ...argument.update, token: sessionTokenHash(argument.update.token) }
          : argument.update;
      const result = await methods[name]({
        ...argument,
        where: hashWhere(argument.where),
        ...(update ? { update } : {}),
      });
      const raw = rawTokenOf(argument.where);
      if (raw === undefined || !result || typeof result !== "object" || Array.isArray(result)) return result;
      return "token" in result ? { ...result, token: raw } : result;
    };
  }
  if (typeof adapter.transaction === "function") {
    wrapped.transaction = (callback: (transaction: AuthAdapter) => Promise<unknown>) =>
      adapter.transaction((transaction) => callback(withSessionTokenHash(transaction as unknown as AuthAdapter)));
  }
  return wrapped as unknown as Adapter;
}

import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";
import type BetterSqlite3 from "better-sqlite3";
import { type DatabaseConfig, ensureSqliteLocation, readDatabaseConfig } from "./database-config";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { TunedSqliteAdapterFactory } from "./sqlite-adapter";

/**
 * The typed client. Both generated clients come from one set of models, so the SQLite client's
 * type describes the Postgres one too; only the provider-specific query compiler differs.
 */
export type Database = SqliteClient;

const providers = new WeakMap<object, DatabaseConfig["provider"]>();

/** Creates a client for a database config (tests use this with their own files). */
export function createDatabase(config: DatabaseConfig = readDatabaseConfig()): Database {
  const client = createClient(config);
  providers.set(client, config.provider);
  return client;
}

/**
 * Which database a client speaks, for the hand-written SQL that differs (full-text search,
 * history pages): the provider it was created for, else the configured one.
 */
export function providerOf(client: Database): DatabaseConfig["provider"] {
  return providers.get(client) ?? readDatabaseConfig().provider;
}

// On globalThis: Next.js bundles instrumentation.ts (which usually creates the process-wide
// client) apart from the route handlers, each with its own copy of this module.
const FACTORIES_KEY = Symbol.for("trellis.sqlite-adapter-factories");
const factoryHolder = globalThis as unknown as Record<symbol, WeakMap<object, TunedSqliteAdapterFactory> | undefined>;
factoryHolder[FACTORIES_KEY] ??= new WeakMap();
const sqliteFactories = factoryHolder[FACTORIES_KEY];

/**
 * The better-sqlite3 connection under a SQLite client, once it has connected (see
 * `TunedSqliteAdapterFactory.connection` for the rules of writing on it); undefined for
 * PostgreSQL and before the first query.
 */
export function sqliteConnectionOf(client: Database): BetterSqlite3.Database | undefined {
  return sqliteFactories.get(client)?.connection();
}

/**
 * The better-sqlite3 connection under a SQLite client when a statement may run on it
 * synchronously right now: connected, and no Prisma interactive transaction open on it (a
 * statement run then would land inside that transaction). Undefined otherwise (PostgreSQL,
 * before the first query, inside a transaction): the caller goes through Prisma. The hot path of
 * a published run reads and writes this way, at a fraction of the cost of Prisma's client.
 */
export function idleSqliteConnectionOf(client: Database): BetterSqlite3.Database | undefined {
  const connection = sqliteConnectionOf(client);
  return connection && !connection.inTransaction ? connection : undefined;
}

function createClient(config: DatabaseConfig): Database {
  if (config.provider === "sqlite") {
    ensureSqliteLocation(config);
    const factory = new TunedSqliteAdapterFactory({ url: config.url });
    const client = new SqliteClient({ adapter: factory });
    sqliteFactories.set(client, factory);
    return client;
  }
  const adapter = new PrismaPg(
    {
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
      // A refused connection fails at once (503 database_unavailable); this bounds the rest (an
      // unanswering host, or waiting for a free pool connection under load) so nothing hangs forever.
      connectionTimeoutMillis: 10_000,
      // Every run executing at once flushes its recorder through this pool: a queue worker with
      // many concurrent runs needs more than pg's default 10 (scripts/worker.ts sizes it).
      max: poolSize(process.env.TRELLIS_DATABASE_POOL_MAX),
    },
    { schema: config.schema },
  );
  return new PostgresClient({ adapter }) as unknown as Database;
}

function poolSize(value: string | undefined): number {
  return value && /^[1-9]\d*$/.test(value) ? Number(value) : 10;
}

const globalForDatabase = globalThis as unknown as { trellisDatabase?: Database };

/** The process-wide client; survives Next.js dev reloads by living on globalThis. */
export function database(): Database {
  globalForDatabase.trellisDatabase ??= createDatabase();
  return globalForDatabase.trellisDatabase;
}

/** Replaces the process-wide client (integration tests point it at a scratch database). */
export function setDatabase(client: Database): void {
  globalForDatabase.trellisDatabase = client;
}

/** A round trip to the database (health checks; on SQLite a statement on Prisma's own connection). */
export async function pingDatabase(): Promise<void> {
  const db = database();
  const connection = idleSqliteConnectionOf(db);
  if (connection) connection.prepare("SELECT 1").get();
  else await db.$queryRawUnsafe("SELECT 1");
}

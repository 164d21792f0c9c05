import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { type DatabaseConfig, readDatabaseConfig } from "../database-config";

/** The PostgreSQL member of DatabaseConfig. */
type PostgresDatabaseConfig = Extract<DatabaseConfig, { provider: "postgresql" }>;

import { deployMigrations } from "../migrations";
import { createDatabase, type Database, setDatabase } from "../prisma-client";

/** A migrated scratch database for one test file. */
export interface TestDatabase {
  /** Its config. */
  config: DatabaseConfig;
  /** Its client, also installed as the process-wide client. */
  db: Database;
  /** Disconnects and deletes the database. */
  dispose(): Promise<void>;
}

/** An empty scratch database (no migrations applied, no client): for tests of migrations themselves. */
export interface ScratchDatabase {
  /** Its config. */
  config: DatabaseConfig;
  /** Deletes the database (close your own connections first). */
  dispose(): Promise<void>;
}

/** Providers the repository suites run against: SQLite always, Postgres when TRELLIS_TEST_POSTGRES_URL is set. */
export function testProviders(): ("sqlite" | "postgresql")[] {
  return process.env.TRELLIS_TEST_POSTGRES_URL ? ["sqlite", "postgresql"] : ["sqlite"];
}

/** The PostgreSQL server of TRELLIS_TEST_POSTGRES_URL. */
function testPostgres(): PostgresDatabaseConfig {
  const base = readDatabaseConfig({ DATABASE_URL: process.env.TRELLIS_TEST_POSTGRES_URL });
  if (base.provider !== "postgresql") throw new Error("TRELLIS_TEST_POSTGRES_URL must be a postgresql:// URL");
  return base;
}

/** Runs one statement on the test server's maintenance database (CREATE/DROP DATABASE). */
async function onPostgresServer(base: PostgresDatabaseConfig, sql: string): Promise<void> {
  const admin = new pg.Client({
    host: base.host,
    port: base.port,
    user: base.user,
    password: base.password,
    database: base.database,
  });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Creates an empty database of the given provider: a file in a temporary folder, or a new PostgreSQL database. */
export async function createScratchDatabase(
  provider: "sqlite" | "postgresql",
  prefix = "trellis_test",
): Promise<ScratchDatabase> {
  if (provider === "sqlite") {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll("_", "-")}-`));
    const filePath = path.join(folder, "test.db");
    return {
      config: { provider: "sqlite", url: `file:${filePath}`, filePath },
      async dispose() {
        fs.rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const base = testPostgres();
  const name = `${prefix}_${crypto.randomBytes(5).toString("hex")}`;
  await onPostgresServer(base, `CREATE DATABASE "${name}"`);
  return {
    config: { ...base, database: name, url: base.url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) },
    dispose: () => onPostgresServer(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Creates, migrates and installs a fresh database of the given provider. */
export async function createTestDatabase(provider: "sqlite" | "postgresql"): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(provider);
  await deployMigrations(scratch.config);
  const db = createDatabase(scratch.config);
  setDatabase(db);
  return {
    config: scratch.config,
    db,
    async dispose() {
      await db.$disconnect();
      await scratch.dispose();
    },
  };
}

/**
 * Runs one raw statement on its own short-lived connection, bypassing Prisma: for building a
 * database as an older release left it (columns the current client no longer knows).
 * Parameters are written `?` for both providers.
 */
export async function executeRawStatement(config: DatabaseConfig, sql: string, parameters: unknown[]): Promise<void> {
  if (config.provider === "sqlite") {
    const connection = new BetterSqlite3(config.filePath);
    try {
      connection.prepare(sql).run(...parameters);
    } finally {
      connection.close();
    }
    return;
  }
  let index = 0;
  const connection = new pg.Client({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: config.database,
  });
  await connection.connect();
  try {
    await connection.query(
      sql.replace(/\?/g, () => `$${++index}`),
      parameters,
    );
  } finally {
    await connection.end();
  }
}

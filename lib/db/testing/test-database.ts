import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type DatabaseConfig, readDatabaseConfig } from "../database-config";
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

/** Providers the repository suites run against: SQLite always, Postgres when TRELLIS_TEST_POSTGRES_URL is set. */
export function testProviders(): ("sqlite" | "postgresql")[] {
  return process.env.TRELLIS_TEST_POSTGRES_URL ? ["sqlite", "postgresql"] : ["sqlite"];
}

/** Creates, migrates and installs a fresh database of the given provider. */
export async function createTestDatabase(provider: "sqlite" | "postgresql"): Promise<TestDatabase> {
  if (provider === "sqlite") {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-test-"));
    const filePath = path.join(folder, "test.db");
    const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };
    await deployMigrations(config);
    const db = createDatabase(config);
    setDatabase(db);
    return {
      config,
      db,
      async dispose() {
        await db.$disconnect();
        fs.rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const base = readDatabaseConfig({ DATABASE_URL: process.env.TRELLIS_TEST_POSTGRES_URL });
  if (base.provider !== "postgresql") throw new Error("TRELLIS_TEST_POSTGRES_URL must be a postgresql:// URL");
  const name = `trellis_test_${crypto.randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({
    host: base.host,
    port: base.port,
    user: base.user,
    password: base.password,
    database: base.database,
  });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const config: DatabaseConfig = { ...base, database: name, url: base.url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) };
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  return {
    config,
    db,
    async dispose() {
      await db.$disconnect();
      const cleanup = new pg.Client({
        host: base.host,
        port: base.port,
        user: base.user,
        password: base.password,
        database: base.database,
      });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

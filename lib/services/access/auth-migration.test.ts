import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { findPasswordHash } from "../../db/credentials";
import { type DatabaseConfig, readDatabaseConfig } from "../../db/database-config";
import { deployMigrations } from "../../db/migrations";
import { createDatabase, setDatabase } from "../../db/prisma-client";
import { signIn } from "../account";
import { createServiceRoot, installServiceRoot } from "../root";
import { principalFromSessionToken } from "./session";

/** The migration that moves passwords into better-auth's credential accounts. */
const MIGRATION = "20261201234143_better_auth";
const repositoryRoot = process.cwd();

/** A copy of prisma/ without the better-auth migration: a database made from it is "before". */
function projectBefore(): { root: string; restore(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-auth-migration-"));
  fs.cpSync(path.join(repositoryRoot, "prisma"), path.join(root, "prisma"), { recursive: true });
  const folders = [
    path.join("prisma", "migrations", MIGRATION),
    path.join("prisma", "postgres", "migrations", MIGRATION),
  ];
  for (const folder of folders) fs.rmSync(path.join(root, folder), { recursive: true });
  return {
    root,
    restore() {
      for (const folder of folders) {
        fs.cpSync(path.join(repositoryRoot, folder), path.join(root, folder), { recursive: true });
      }
    },
  };
}

/** The first password format, `scrypt$salt$hash`, as the earliest releases stored it. */
function legacyHash(password: string): { stored: string; salt: string; hash: string } {
  const salt = crypto.randomBytes(16).toString("base64");
  const hash = crypto.scryptSync(password, Buffer.from(salt, "base64"), 32).toString("base64");
  return { stored: `scrypt$${salt}$${hash}`, salt, hash };
}

async function signsInAndIsRehashed(config: DatabaseConfig, userId: string, salt: string, hash: string) {
  const db = createDatabase(config);
  setDatabase(db);
  installServiceRoot(createServiceRoot());
  try {
    const client = { ipAddress: "192.0.2.10", userAgent: "migration-test" };
    await expect(signIn({ email: "old@example.test", password: "wrong-password" }, client)).rejects.toMatchObject({
      code: "invalid_credentials",
    });
    const { token, user } = await signIn({ email: "old@example.test", password: "old-password" }, client);
    expect(user.id).toBe(userId);
    expect(token).toBeTruthy();
    // The legacy hash was re-stored with its parameters (same salt and hash).
    expect(await findPasswordHash(userId, db)).toBe(`scrypt$N=16384,r=8,p=1$${salt}$${hash}`);
    const session = await db.session.findFirstOrThrow({ where: { userId } });
    expect(session.ipAddress).toBe("192.0.2.10");
    // Member of no workspace: a valid session, but no principal to act as.
    expect(await principalFromSessionToken(token)).toBeNull();
    expect(await signIn({ email: "old@example.test", password: "old-password" }, client)).toMatchObject({
      user: { id: userId },
    });
  } finally {
    await db.$disconnect();
  }
}

describe("the better-auth migration carries passwords over", () => {
  const previousRoot = process.env.TRELLIS_ROOT;
  afterEach(() => {
    if (previousRoot === undefined) delete process.env.TRELLIS_ROOT;
    else process.env.TRELLIS_ROOT = previousRoot;
  });

  it("SQLite: a user with a legacy hash signs in through better-auth after the migration and is re-hashed", async () => {
    const project = projectBefore();
    process.env.TRELLIS_ROOT = project.root;
    const filePath = path.join(project.root, "data", "before.db");
    const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };
    expect(await deployMigrations(config)).not.toContain(MIGRATION);
    const { stored, salt, hash } = legacyHash("old-password");
    const raw = new BetterSqlite3(filePath);
    raw
      .prepare('INSERT INTO "User" ("id", "email", "name", "passwordHash") VALUES (?, ?, ?, ?)')
      .run("user-old", "old@example.test", "Old", stored);
    raw.close();
    project.restore();
    expect(await deployMigrations(config)).toEqual([MIGRATION]);
    await signsInAndIsRehashed(config, "user-old", salt, hash);
    fs.rmSync(project.root, { recursive: true, force: true });
  });

  it.skipIf(!process.env.TRELLIS_TEST_POSTGRES_URL)(
    "PostgreSQL: a user with a legacy hash signs in through better-auth after the migration and is re-hashed",
    async () => {
      const project = projectBefore();
      process.env.TRELLIS_ROOT = project.root;
      const base = readDatabaseConfig({ DATABASE_URL: process.env.TRELLIS_TEST_POSTGRES_URL });
      if (base.provider !== "postgresql") throw new Error("TRELLIS_TEST_POSTGRES_URL must be a postgresql:// URL");
      const name = `trellis_auth_migration_${crypto.randomBytes(4).toString("hex")}`;
      const connection = { host: base.host, port: base.port, user: base.user, password: base.password };
      const admin = new pg.Client({ ...connection, database: base.database });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const config: DatabaseConfig = { ...base, database: name, url: base.url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) };
      try {
        expect(await deployMigrations(config)).not.toContain(MIGRATION);
        const { stored, salt, hash } = legacyHash("old-password");
        const raw = new pg.Client({ ...connection, database: name });
        await raw.connect();
        await raw.query('INSERT INTO "User" ("id", "email", "name", "passwordHash") VALUES ($1, $2, $3, $4)', [
          "user-old",
          "old@example.test",
          "Old",
          stored,
        ]);
        await raw.end();
        project.restore();
        expect(await deployMigrations(config)).toEqual([MIGRATION]);
        await signsInAndIsRehashed(config, "user-old", salt, hash);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
        fs.rmSync(project.root, { recursive: true, force: true });
      }
    },
  );
});

import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findPasswordHash } from "../../db/credentials";
import type { DatabaseConfig } from "../../db/database-config";
import { deployMigrations } from "../../db/migrations";
import { createDatabase, setDatabase } from "../../db/prisma-client";
import { createScratchDatabase, executeRawStatement, testProviders } from "../../db/testing/test-database";
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

describe.each(testProviders())("the better-auth migration carries passwords over on %s", (provider) => {
  const previousRoot = process.env.TRELLIS_ROOT;
  afterEach(() => {
    if (previousRoot === undefined) delete process.env.TRELLIS_ROOT;
    else process.env.TRELLIS_ROOT = previousRoot;
  });

  it("a user with a legacy hash signs in through better-auth after the migration and is re-hashed", async () => {
    const project = projectBefore();
    process.env.TRELLIS_ROOT = project.root;
    const scratch = await createScratchDatabase(provider, "trellis_auth_migration");
    try {
      expect(await deployMigrations(scratch.config)).not.toContain(MIGRATION);
      const { stored, salt, hash } = legacyHash("old-password");
      // The column the current client no longer has: only a raw statement can fill it.
      await executeRawStatement(
        scratch.config,
        'INSERT INTO "User" ("id", "email", "name", "passwordHash") VALUES (?, ?, ?, ?)',
        ["user-old", "old@example.test", "Old", stored],
      );
      project.restore();
      expect(await deployMigrations(scratch.config)).toEqual([MIGRATION]);
      await signsInAndIsRehashed(scratch.config, "user-old", salt, hash);
    } finally {
      await scratch.dispose();
      fs.rmSync(project.root, { recursive: true, force: true });
    }
  });
});

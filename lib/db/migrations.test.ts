import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, type DatabaseConfig } from "./database-config";
import { createMigration, deployMigrations, pendingMigrations } from "./migrations";

const repositoryRoot = process.cwd();

/** A copy of prisma/ in a scratch root, so a test can change the schema and create migrations. */
function scratchProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-migrations-"));
  fs.cpSync(path.join(repositoryRoot, "prisma"), path.join(root, "prisma"), { recursive: true });
  return root;
}

describe("offline migrations (SQLite)", () => {
  const previousRoot = process.env.TRELLIS_ROOT;
  afterEach(() => {
    if (previousRoot === undefined) delete process.env.TRELLIS_ROOT;
    else process.env.TRELLIS_ROOT = previousRoot;
  });

  it("creates a migration from a schema change and deploys it on top of the existing ones", async () => {
    const root = scratchProject();
    process.env.TRELLIS_ROOT = root;
    const filePath = path.join(root, "data", "test.db");
    const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };

    expect(await createMigration(config, "nothing")).toBeNull();
    const shipped = fs
      .readdirSync(path.join(root, "prisma", "migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory()).length;
    const schemaPath = path.join(root, "prisma", "schema.prisma");
    fs.appendFileSync(schemaPath, "\nmodel AuditNote {\n  id   String @id\n  text String\n}\n");
    const created = await createMigration(config, "add audit note");
    expect(created).toMatch(/_add_audit_note$/);
    expect(fs.readFileSync(path.join(created!, "migration.sql"), "utf8")).toContain('CREATE TABLE "AuditNote"');

    const applied = await deployMigrations(config);
    // Every shipped migration, then the new one.
    expect(applied).toHaveLength(shipped + 1);
    expect(applied.at(-1)).toBe(path.basename(created!));
    expect(await pendingMigrations(config)).toEqual([]);
    expect(await deployMigrations(config)).toEqual([]);
  });

  it("says the file is in use when another process holds the database, instead of the engine's busy error", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-busy-"));
    const filePath = path.join(folder, "busy.db");
    const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };
    await deployMigrations(config);
    // What a running Trellis looks like to the engine: another open connection to the file.
    const other = new BetterSqlite3(filePath);
    try {
      other.prepare("SELECT count(*) FROM sqlite_master").get();
      const error = await deployMigrations(config).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).setting).toBe("DATABASE_URL");
      expect((error as Error).message).toContain(`${filePath} is in use by another process`);
    } finally {
      other.close();
    }
    // Once the other process is gone, start-up works again.
    expect(await deployMigrations(config)).toEqual([]);
  }, 30_000);
});

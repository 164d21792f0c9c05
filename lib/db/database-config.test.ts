import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, ensureSqliteLocation, readDatabaseConfig } from "./database-config";

describe("readDatabaseConfig", () => {
  it("defaults to an SQLite file under data/", () => {
    const config = readDatabaseConfig({});
    expect(config.provider).toBe("sqlite");
    expect(config.url).toMatch(/data\/trellis\.db$/);
  });

  it("reads file: URLs relative to the project root", () => {
    const config = readDatabaseConfig({ DATABASE_URL: "file:./data/x.db" });
    expect(config).toMatchObject({ provider: "sqlite" });
    expect(config.provider === "sqlite" && path.isAbsolute(config.filePath)).toBe(true);
  });

  it("splits a postgres URL into fields", () => {
    const config = readDatabaseConfig({ DATABASE_URL: "postgresql://me:p%40ss@db.example:6543/trellis?schema=app" });
    expect(config).toMatchObject({
      provider: "postgresql",
      host: "db.example",
      port: 6543,
      user: "me",
      password: "p@ss",
      database: "trellis",
      schema: "app",
    });
  });

  it.each([
    ["not a url", "is not a valid URL"],
    ["mysql://localhost/db", 'unsupported scheme "mysql:"'],
    ["postgresql://localhost", "names no database"],
    ["file:", "needs a path"],
  ])("rejects %s with one line naming DATABASE_URL", (value, fragment) => {
    let caught: unknown;
    try {
      readDatabaseConfig({ DATABASE_URL: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    const message = (caught as Error).message;
    expect(message.startsWith("DATABASE_URL: ")).toBe(true);
    expect(message).toContain(fragment);
    expect(message).not.toContain("\n");
  });

  it("refuses an unwritable data folder", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-ro-"));
    const blocker = path.join(folder, "file");
    fs.writeFileSync(blocker, "");
    // A folder path that goes through a regular file can never be created, even as root.
    const config = readDatabaseConfig({ DATABASE_URL: `file:${blocker}/sub/trellis.db` });
    expect(() => ensureSqliteLocation(config)).toThrow(/DATABASE_URL: the data folder .* cannot be created or written/);
  });
});

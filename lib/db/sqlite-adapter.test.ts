import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { tuneSqliteConnection } from "./sqlite-adapter";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

describe("tuneSqliteConnection", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });
  const open = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-sqlite-tune-"));
    folders.push(folder);
    const database = new BetterSqlite3(path.join(folder, "t.db"));
    database.pragma("journal_mode = WAL");
    return database;
  };

  it("sets synchronous = NORMAL (1)", () => {
    const database = open();
    expect(database.pragma("synchronous", { simple: true })).toBe(2);
    tuneSqliteConnection(database);
    expect(database.pragma("synchronous", { simple: true })).toBe(1);
    database.close();
  });

  it("reuses a compiled statement with new arguments each time, as the adapter calls it", () => {
    const database = open();
    database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    tuneSqliteConnection(database, 2);
    type Bound = { reader: boolean; run(): { changes: number }; raw(): { all(): unknown[][] } };
    const prepare = (sql: string) => (database.prepare(sql) as unknown as { bind(args: unknown[]): Bound }).bind;
    const insert = "INSERT INTO t (id, name) VALUES (?, ?)";
    expect(database.prepare(insert)).toBe(database.prepare(insert));
    expect(prepare(insert)([1, "one"]).run().changes).toBe(1);
    expect(prepare(insert)([2, "two"]).run().changes).toBe(1);
    const select = prepare("SELECT id, name FROM t WHERE id >= ? ORDER BY id");
    const bound = select([1]);
    expect(bound.reader).toBe(true);
    expect(bound.raw().all()).toEqual([
      [1, "one"],
      [2, "two"],
    ]);
    expect(prepare("SELECT id, name FROM t WHERE id >= ? ORDER BY id")([2]).raw().all()).toEqual([[2, "two"]]);
    // Our own statements on the connection: rows as objects, with arguments at each call.
    const objects = database.prepare("SELECT id, name FROM t WHERE id >= ? ORDER BY id");
    expect(objects.all(2)).toEqual([{ id: 2, name: "two" }]);
    expect(objects.get(1)).toEqual({ id: 1, name: "one" });
    // A wrong argument count still fails, as an unbound statement would.
    expect(() => prepare(insert)([3]).run()).toThrow(RangeError);
    // Past the cache size the least recently used statement is compiled afresh, and still works.
    const first = database.prepare("SELECT 1");
    database.prepare("SELECT 2");
    database.prepare("SELECT 3");
    expect(database.prepare("SELECT 1")).not.toBe(first);
    database.close();
  });
});

describe("the tuned adapter under Prisma", () => {
  let test: TestDatabase | undefined;
  afterEach(async () => test?.dispose());

  it("runs typed queries, raw statements and transactions on the cached statements", async () => {
    test = await createTestDatabase("sqlite");
    const { db } = test;
    expect(await db.$queryRawUnsafe<{ synchronous: bigint }[]>("PRAGMA synchronous")).toEqual([{ synchronous: 1n }]);
    const workspace = await db.workspace.create({ data: { name: "W", slug: "w" } });
    for (let index = 0; index < 3; index++) {
      await db.$transaction(async (transaction) => {
        await transaction.workspace.update({ where: { id: workspace.id }, data: { name: `W${index}` } });
      });
    }
    await expect(
      db.$transaction(async (transaction) => {
        await transaction.workspace.update({ where: { id: workspace.id }, data: { name: "rolled back" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await db.workspace.findUnique({ where: { id: workspace.id } }))?.name).toBe("W2");
    expect(await db.$executeRawUnsafe(`UPDATE "Workspace" SET "name" = ? WHERE "id" = ?`, "raw", workspace.id)).toBe(1);
    expect((await db.workspace.findUnique({ where: { id: workspace.id } }))?.name).toBe("raw");
  });
});

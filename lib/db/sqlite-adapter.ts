import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type BetterSqlite3 from "better-sqlite3";

/** Prepared statements kept per connection (Prisma's statements are a fixed, small set of shapes). */
export const STATEMENT_CACHE_SIZE = 500;

type Statement = BetterSqlite3.Statement<unknown[]>;

/**
 * A cached statement as the adapter uses it: `prepare(sql).bind(args)` then `reader`, `columns()`,
 * `run()` or `raw().all()`; and as our own statements on the connection do (the recorder's
 * synchronous batch, the hot path of a run): `run(...args)`, `get(...args)` (an object row),
 * `all(...args)` (object rows). better-sqlite3 binds a statement once for good, so the bound view
 * passes the arguments at each call instead and the statement itself is reused.
 */
function reusable(statement: Statement) {
  return {
    get reader() {
      return statement.reader;
    },
    columns: () => statement.columns(),
    run: (...args: unknown[]) => statement.run(...args),
    get: (...args: unknown[]) => statement.raw(false).get(...args),
    all: (...args: unknown[]) => statement.raw(false).all(...args),
    bind: (args: unknown[]) => ({
      reader: statement.reader,
      columns: () => statement.columns(),
      run: () => statement.run(args),
      raw: () => ({ all: () => statement.raw(true).all(args) }),
    }),
  };
}

/**
 * Tunes one adapter connection:
 * - `synchronous = NORMAL`: in WAL mode (set at deploy) a commit is durable against an application
 *   crash and only the last commits can be lost on a power cut (SQLite's recommended WAL setting);
 *   FULL fsyncs the WAL at every commit, which on this machine cost 1–2 ms per write and a run does
 *   several.
 * - a statement cache: better-sqlite3 compiles the SQL at every `prepare`, and the adapter prepares
 *   every query afresh; reusing the compiled statement for the same SQL text saves most of it.
 */
export function tuneSqliteConnection(database: BetterSqlite3.Database, cacheSize = STATEMENT_CACHE_SIZE): void {
  database.pragma("synchronous = NORMAL");
  const prepare = database.prepare.bind(database) as (sql: string) => Statement;
  const cache = new Map<string, ReturnType<typeof reusable>>();
  (database as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const cached = cache.get(sql);
    if (cached) {
      // Least recently used first: re-inserting moves it to the end.
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = reusable(prepare(sql));
    cache.set(sql, statement);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    return statement;
  };
}

/**
 * Prisma's better-sqlite3 adapter factory with each connection tuned (`tuneSqliteConnection`).
 * It relies on the adapter keeping its better-sqlite3 handle in `client` (7.10.0 does); a version
 * that does not is used untuned rather than broken.
 */
export class TunedSqliteAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = "sqlite" as const;
  readonly adapterName: string;
  private readonly inner: PrismaBetterSqlite3;

  constructor(config: { url: string }) {
    this.inner = new PrismaBetterSqlite3(config);
    this.adapterName = this.inner.adapterName;
  }

  private current: BetterSqlite3.Database | undefined;

  async connect(): Promise<SqlDriverAdapter> {
    const adapter = await this.inner.connect();
    const client = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
    if (client && typeof client.prepare === "function" && typeof client.pragma === "function") {
      tuneSqliteConnection(client);
      this.current = client;
    }
    return adapter;
  }

  /**
   * The open better-sqlite3 connection Prisma queries through, when tuned; undefined before the
   * first query and after a disconnect. Whoever writes on it directly must do so synchronously
   * and only outside a transaction (`inTransaction` false): Prisma's own interactive transactions
   * span awaits on this same connection.
   */
  connection(): BetterSqlite3.Database | undefined {
    return this.current?.open ? this.current : undefined;
  }
}

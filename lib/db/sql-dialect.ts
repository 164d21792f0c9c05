import "server-only";
/** The bits of SQL that differ between SQLite and PostgreSQL in our hand-written batch writes. */
export interface SqlDialect {
  /** Provider name. */
  provider: "sqlite" | "postgresql";
  /** Placeholder for the n-th (1-based) parameter holding JSON text. */
  json(index: number): string;
  /** Placeholder for the n-th parameter holding an ISO timestamp. */
  timestamp(index: number): string;
  /** Placeholder for any other n-th parameter. */
  value(index: number): string;
  /**
   * `endedMs − startedAt` in whole milliseconds, never negative, as an integer: `endedMs` the
   * placeholder of an epoch-milliseconds parameter, `startedAt` a DateTime column.
   */
  durationMs(endedMs: string, startedAt: string): string;
}

/**
 * A DateTime as Prisma's SQLite adapter stores it (ISO text ending in `+00:00`): SQLite compares
 * the text, so a bound value must have the same shape (`…Z` sorts after `…+00:00` at the same ms).
 * Bound as `timestamp(3)`, PostgreSQL reads it as the same UTC time (the offset of a literal for a
 * zone-less timestamp is ignored).
 */
export function sqliteTimestamp(value: Date): string {
  return value.toISOString().replace(/Z$/, "+00:00");
}

/** SQLite: a DateTime column (ISO text) as integer epoch milliseconds. */
export function sqliteEpochMs(column: string): string {
  return `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`;
}

/** SQLite stores Prisma Json and DateTime as text, so plain placeholders do. */
export const sqliteDialect: SqlDialect = {
  provider: "sqlite",
  json: () => "?",
  timestamp: () => "?",
  value: () => "?",
  durationMs: (endedMs, startedAt) => `MAX(0, ${endedMs} - ${sqliteEpochMs(startedAt)})`,
};

/** Postgres needs explicit casts because parameters arrive untyped. */
export const postgresDialect: SqlDialect = {
  provider: "postgresql",
  json: (index) => `CAST($${index} AS jsonb)`,
  timestamp: (index) => `CAST($${index} AS timestamp(3))`,
  value: (index) => `$${index}`,
  // timestamp(3) holds UTC without a zone: EXTRACT(EPOCH …) reads it as UTC. Epoch ms overflow int4.
  durationMs: (endedMs, startedAt) =>
    `CAST(GREATEST(0, CAST(${endedMs} AS bigint) - CAST(ROUND(EXTRACT(EPOCH FROM ${startedAt}) * 1000) AS bigint)) AS integer)`,
};

/** Column kinds used to choose placeholders. */
export type ColumnKind = "json" | "timestamp" | "value";

/**
 * Builds one multi-row `INSERT ... ON CONFLICT DO UPDATE`. One statement per ~100 rows costs a
 * few µs per row where a Prisma call per row costs ~250 µs (measured in ../shared/NOTES.md).
 */
export function buildUpsert(
  dialect: SqlDialect,
  table: string,
  columns: readonly (readonly [name: string, kind: ColumnKind])[],
  conflictColumns: readonly string[],
  rows: readonly unknown[][],
): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = columns.map(([, kind], columnIndex) => {
      parameters.push(row[columnIndex]);
      return dialect[kind](parameters.length);
    });
    return `(${placeholders.join(",")})`;
  });
  const names = columns.map(([name]) => `"${name}"`).join(",");
  const updates = columns
    .filter(([name]) => !conflictColumns.includes(name))
    .map(([name]) => `"${name}"=excluded."${name}"`)
    .join(",");
  const conflict = conflictColumns.map((name) => `"${name}"`).join(",");
  const action = updates ? `DO UPDATE SET ${updates}` : "DO NOTHING";
  return {
    sql: `INSERT INTO "${table}" (${names}) VALUES ${tuples.join(",")} ON CONFLICT (${conflict}) ${action}`,
    parameters,
  };
}

/** The dialect of a provider. */
export function dialectFor(provider: "sqlite" | "postgresql"): SqlDialect {
  return provider === "sqlite" ? sqliteDialect : postgresDialect;
}

/**
 * Placeholders bound in text order (SQLite's are positional: a value used twice is bound twice)
 * and timestamps in each database's shape, for hand-written queries whose conditions vary.
 */
export interface SqlBinder {
  /** The values bound so far, in placeholder order. */
  parameters: unknown[];
  /** Binds a value and returns its placeholder (`?` or `$n`). */
  parameter(value: unknown): string;
  /** Binds a time and returns the SQL of a timestamp of it. */
  timestamp(value: Date): string;
}

/** A fresh {@link SqlBinder} for the provider. */
export function sqlBinder(provider: "sqlite" | "postgresql"): SqlBinder {
  const parameters: unknown[] = [];
  const parameter = (value: unknown) => {
    parameters.push(value);
    return provider === "sqlite" ? "?" : `$${parameters.length}`;
  };
  const timestamp = (value: Date) =>
    provider === "sqlite"
      ? parameter(sqliteTimestamp(value))
      : `CAST(${parameter(value.toISOString())} AS timestamp(3))`;
  return { parameters, parameter, timestamp };
}

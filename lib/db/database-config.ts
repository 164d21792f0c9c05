import "server-only";
import fs from "node:fs";
import path from "node:path";
import { TrellisError } from "../workflow/errors";

/** Thrown at start when a setting cannot work; the message names the setting in one line. */
export class ConfigurationError extends TrellisError {
  /** The environment variable at fault. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super("invalid_configuration", `${setting}: ${message}`);
    this.setting = setting;
  }
}

/** Where the data lives: an SQLite file or a PostgreSQL server. */
export type DatabaseConfig =
  | { provider: "sqlite"; url: string; filePath: string }
  | {
      provider: "postgresql";
      url: string;
      host: string;
      port: number;
      user: string;
      password: string;
      database: string;
      schema: string;
    };

/** Root of the repository (scripts and the server both run from it). */
export function projectRoot(): string {
  return process.env.TRELLIS_ROOT ?? process.cwd();
}

/** The default SQLite file, inside the gitignored data folder. */
export function defaultSqlitePath(): string {
  return path.join(projectRoot(), "data", "trellis.db");
}

/**
 * Parses `DATABASE_URL` (unset → SQLite under `data/`). Postgres settings are split into fields
 * because @prisma/adapter-pg mishandles shadow databases when given one connection string.
 */
export function readDatabaseConfig(environment: Record<string, string | undefined> = process.env): DatabaseConfig {
  const raw = environment.DATABASE_URL?.trim();
  if (!raw) {
    const filePath = defaultSqlitePath();
    return { provider: "sqlite", url: `file:${filePath}`, filePath };
  }
  if (raw.startsWith("file:")) {
    const location = raw.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (!location)
      throw new ConfigurationError("DATABASE_URL", "a file: URL needs a path, e.g. file:./data/trellis.db");
    const filePath = path.resolve(projectRoot(), location);
    return { provider: "sqlite", url: `file:${filePath}`, filePath };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigurationError(
      "DATABASE_URL",
      "is not a valid URL; use file:./data/trellis.db or postgresql://user:password@host:5432/database",
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new ConfigurationError(
      "DATABASE_URL",
      `unsupported scheme "${parsed.protocol}"; use file: (SQLite) or postgresql: (PostgreSQL)`,
    );
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (!database) throw new ConfigurationError("DATABASE_URL", "names no database; add /<database> to the URL");
  return {
    provider: "postgresql",
    url: raw,
    host: parsed.hostname || "localhost",
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username || "postgres"),
    password: decodeURIComponent(parsed.password),
    database,
    schema: parsed.searchParams.get("schema") ?? "public",
  };
}

/** Checks that an SQLite file's folder exists (creating it) and is writable; throws a ConfigurationError otherwise. */
export function ensureSqliteLocation(config: DatabaseConfig): void {
  if (config.provider !== "sqlite") return;
  const folder = path.dirname(config.filePath);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    throw new ConfigurationError("DATABASE_URL", `the data folder ${folder} cannot be created or written`);
  }
}

import "server-only";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as wasmBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { DatabaseConfig } from "./database-config";

type SchemaEngine = wasmBindings.SchemaEngine;

let initialized: Promise<void> | undefined;

/**
 * The package's own entry imports the .wasm file as an ES module, which Node 20 cannot load, so
 * the bindings are instantiated by hand exactly as that entry would.
 */
function initializeWasm(): Promise<void> {
  initialized ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
    const imports = { "./schema_engine_bg.js": wasmBindings } as unknown as WebAssembly.Imports;
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), imports);
    const bindings = wasmBindings as unknown as { __wbg_set_wasm(exports: WebAssembly.Exports): void };
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
  })();
  return initialized;
}

/** Creates the migration-aware driver adapter factory for a database. */
export function createAdapterFactory(config: DatabaseConfig) {
  if (config.provider === "sqlite") return new PrismaBetterSqlite3({ url: config.url });
  return new PrismaPg(
    { host: config.host, port: config.port, user: config.user, password: config.password, database: config.database },
    { schema: config.schema },
  );
}

/** A schema engine bound to one database, plus the adapter to close afterwards. */
export interface EngineHandle {
  /** The wasm schema engine. */
  engine: SchemaEngine;
  /** Releases connections (a leftover SQLite -journal file otherwise). */
  close(): Promise<void>;
}

/** Opens the wasm schema engine on a database with the given schema file contents. */
export async function openSchemaEngine(
  config: DatabaseConfig,
  schemaPath: string,
  schema: string,
): Promise<EngineHandle> {
  await initializeWasm();
  const base = createAdapterFactory(config);
  // The engine opens connections itself; track them so close() can release SQLite's file lock.
  const connections: { dispose(): Promise<void> }[] = [];
  const tracked = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => {
      const connection = await base.connect();
      connections.push(connection);
      return connection;
    },
    connectToShadowDb: async () => {
      const connection = await base.connectToShadowDb();
      connections.push(connection);
      return connection;
    },
  };
  const factory = bindMigrationAwareSqlAdapterFactory(tracked as unknown as typeof base);
  const logs: string[] = [];
  const engine = await wasmBindings.SchemaEngine.new(
    { datamodels: [[path.basename(schemaPath), schema]] },
    (line: string) => logs.push(line),
    factory,
  );
  return {
    engine,
    async close() {
      engine.free();
      await Promise.all(connections.map((connection) => connection.dispose().catch(() => undefined)));
    },
  };
}

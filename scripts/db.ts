/**
 * Offline migrations through @prisma/schema-engine-wasm (the native engine cannot be downloaded
 * here). Usage: tsx scripts/db.ts deploy | status | create <name> [--provider postgresql]
 * Migrations live in Prisma's standard folders, so `prisma migrate deploy` works where the
 * native engine is available.
 */
import { ConfigurationError, readDatabaseConfig } from "../lib/db/database-config";
import { createMigration, deployMigrations, pendingMigrations } from "../lib/db/migrations";

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const config = readDatabaseConfig();
  if (command === "deploy") {
    const applied = await deployMigrations(config);
    console.log(applied.length ? `Applied ${applied.join(", ")}` : "Database is up to date.");
  } else if (command === "status") {
    const pending = await pendingMigrations(config);
    console.log(pending.length ? `Pending: ${pending.join(", ")}` : "No pending migrations.");
  } else if (command === "create") {
    const name = rest.find((argument) => !argument.startsWith("--"));
    if (!name) throw new ConfigurationError("name", "usage: npm run db:migration -- <name>");
    const created = await createMigration(config, name);
    console.log(created ? `Created ${created}` : "The schema matches the migrations; nothing to create.");
  } else {
    console.error("usage: tsx scripts/db.ts deploy | status | create <name>");
    process.exit(2);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigurationError) console.error(`Configuration error: ${error.message}`);
  else console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

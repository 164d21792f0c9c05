/**
 * Derives prisma/postgres/schema.prisma from prisma/schema.prisma (the single source) and runs
 * `prisma generate` for both, so SQLite and PostgreSQL clients come from one set of models.
 * `--check` fails when the committed Postgres schema is stale.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const source = fs.readFileSync("prisma/schema.prisma", "utf8");
const header = "// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.ts. Do not edit.\n";
const postgres =
  header +
  source
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output       = "../lib/db/generated/sqlite"', 'output       = "../../lib/db/generated/postgres"');

const target = "prisma/postgres/schema.prisma";
if (process.argv.includes("--check")) {
  if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== postgres) {
    console.error(`${target} is stale: run npx tsx scripts/prisma-schemas.ts`);
    process.exit(1);
  }
} else {
  fs.mkdirSync("prisma/postgres", { recursive: true });
  if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== postgres) fs.writeFileSync(target, postgres);
  for (const schema of ["prisma/schema.prisma", target]) {
    execFileSync("npx", ["prisma", "generate"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, TRELLIS_PRISMA_SCHEMA: schema, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  }
}

import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

// The native schema engine cannot be downloaded on this network; `prisma generate` only checks
// that the file exists. Migrations run through @prisma/schema-engine-wasm in scripts/db.ts.
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const placeholder = path.join(process.cwd(), "node_modules", ".prisma-schema-engine-placeholder");
  if (!fs.existsSync(placeholder)) {
    fs.mkdirSync(path.dirname(placeholder), { recursive: true });
    fs.writeFileSync(placeholder, "");
  }
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = placeholder;
}

const schema = process.env.TRELLIS_PRISMA_SCHEMA ?? "prisma/schema.prisma";

export default defineConfig({
  schema,
  migrations: { path: path.join(path.dirname(schema), "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/trellis.db" },
});

/** `npm run db:seed`: creates the default workspace, admin user and example workflows (idempotent). */
import { createDatabase } from "../lib/db/prisma-client";
import { seedDatabase, seedOptionsFromEnvironment } from "../lib/db/seed";

const db = createDatabase();
seedDatabase(db, seedOptionsFromEnvironment())
  .then((result) => {
    console.log(result.created.length ? `Seeded: ${result.created.join(", ")}` : "Seed: nothing to add.");
  })
  .catch((error: unknown) => {
    console.error(`Seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => db.$disconnect());

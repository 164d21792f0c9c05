/**
 * `npm start`: check configuration, migrate, seed, build when sources changed, then serve.
 * Bad configuration ends here with one line naming the setting, never a stack trace.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ConfigurationError, readDatabaseConfig } from "../lib/db/database-config";
import { deployMigrations } from "../lib/db/migrations";
import { createDatabase } from "../lib/db/prisma-client";
import { seedDatabase, seedOptionsFromEnvironment } from "../lib/db/seed";
import { checkQueueEnvironment, checkRedisReachable } from "../lib/queue/queue-environment";
import { checkServerEnvironment } from "../lib/services/environment";

function fail(message: string): never {
  console.error(`Trellis cannot start: ${message}`);
  process.exit(1);
}

function newestSourceMtime(folders: string[]): number {
  let newest = 0;
  const walk = (folder: string) => {
    if (!fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "generated") continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const folder of folders) walk(folder);
  return newest;
}

function needsBuild(): boolean {
  const buildId = path.join(".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return (
    newestSourceMtime(["app", "components", "lib", "public"]) > built ||
    ["package.json", "next.config.js"].some((file) => fs.statSync(file).mtimeMs > built)
  );
}

async function main(): Promise<void> {
  let config: ReturnType<typeof readDatabaseConfig>;
  try {
    config = readDatabaseConfig();
    checkServerEnvironment(process.env);
    const queue = checkQueueEnvironment(process.env);
    if (queue) await checkRedisReachable(queue);
    const applied = await deployMigrations(config);
    if (applied.length) console.log(`Migrations applied: ${applied.join(", ")}`);
  } catch (error) {
    if (error instanceof ConfigurationError) fail(error.message);
    fail(`database: ${error instanceof Error ? error.message.split("\n")[0] : String(error)} (check DATABASE_URL)`);
  }
  const db = createDatabase(config);
  try {
    const seeded = await seedDatabase(db, seedOptionsFromEnvironment());
    if (seeded.created.length) console.log(`Seeded: ${seeded.created.join(", ")}`);
  } finally {
    await db.$disconnect();
  }
  if (process.env.TRELLIS_SKIP_BUILD !== "1" && needsBuild()) {
    console.log("Building the app (next build)...");
    const build = spawnSync("npx", ["next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) fail("next build failed (see the output above)");
  }
  const port = process.env.PORT ?? "3000";
  const host = process.env.HOST ?? "0.0.0.0";
  console.log(`Trellis on http://localhost:${port}`);
  // scripts/serve.mjs rather than `next start`: it passes the socket's address to the routes.
  const server = spawn(process.execPath, ["scripts/serve.mjs"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", HOST: host, PORT: port },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
}

void main();

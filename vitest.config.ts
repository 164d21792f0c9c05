import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    // better-sqlite3 is a native addon: worker threads can crash with it, forks do not.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    server: { deps: { inline: ["server-only"] } },
  },
});

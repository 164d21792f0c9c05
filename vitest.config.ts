import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "lib/db/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    // better-sqlite3 is a native addon: worker threads can crash with it, forks do not.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

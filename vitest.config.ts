import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "lib/db/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    // The layer-rule fixtures are a source tree for scripts/check-layers.test.ts, not tests.
    exclude: [...configDefaults.exclude, "scripts/testing/layer-fixtures/**"],
    // better-sqlite3 is a native addon: worker threads can crash with it, forks do not.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

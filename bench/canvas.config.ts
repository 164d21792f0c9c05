import { resolve } from "node:path";
import { defineConfig } from "@playwright/test";
import { ADMIN_STORAGE_STATE } from "../e2e/global-setup";
import { chromiumLaunchOptions } from "../playwright.config";

const port = Number(process.env.TRELLIS_BENCH_PORT ?? 3230);
/** Set to measure against an already running server instead of starting a fresh one. */
const externalBaseUrl = process.env.TRELLIS_BENCH_BASE_URL;

/** `npm run bench:canvas`: the 500-node canvas benchmark against the production build. */
export default defineConfig({
  testDir: ".",
  testMatch: "canvas.bench.ts",
  workers: 1,
  timeout: 240_000,
  reporter: [["list"]],
  // Every page and API needs a session: sign in once, like the e2e suite.
  globalSetup: "../e2e/global-setup.ts",
  use: {
    storageState: resolve(ADMIN_STORAGE_STATE),
    baseURL: externalBaseUrl ?? `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions,
    viewport: { width: 1440, height: 900 },
  },
  webServer: externalBaseUrl
    ? undefined
    : {
        // TRELLIS_SKIP_BUILD: measure the production build made beforehand with `next build`.
        command: "rm -f data/bench.db data/bench.db-journal data/bench.db-wal data/bench.db-shm && npm start",
        url: `http://127.0.0.1:${port}/api/health`,
        reuseExistingServer: false,
        // npm start builds first when sources changed; on a busy 2-core machine that takes minutes.
        timeout: 900_000,
        stdout: "pipe",
        stderr: "pipe",
        env: {
          DATABASE_URL: "file:./data/bench.db",
          TRELLIS_SKIP_BUILD: process.env.TRELLIS_SKIP_BUILD ?? "",
          PORT: String(port),
          HOST: "127.0.0.1",
          NEXT_TELEMETRY_DISABLED: "1",
          TRELLIS_DEMO_API_PORT: String(port + 10),
          OPENAI_API_KEY: "",
          OPENAI_BASE_URL: "",
          TRELLIS_ADMIN_EMAIL: "admin@trellis.local",
          TRELLIS_ADMIN_PASSWORD: "trellis-admin",
        },
      },
});

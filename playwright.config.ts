import { defineConfig } from "@playwright/test";

const port = Number(process.env.TRELLIS_E2E_PORT ?? 3210);

/** Debian's chromium: `npx playwright install` cannot download browsers on this network. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    storageState: "test-results/.auth/admin.json",
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions,
    trace: "retain-on-failure",
    viewport: { width: 1440, height: 900 },
  },
  webServer: {
    // A fresh database each time; the start script migrates and seeds it, then serves the build.
    command: `rm -f data/e2e.db data/e2e.db-journal data/e2e.db-wal data/e2e.db-shm && npm start`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      DATABASE_URL: "file:./data/e2e.db",
      TRELLIS_SKIP_BUILD: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      TRELLIS_DEMO_API_PORT: String(port + 10),
      // The HTTP node may reach the demo stub (port + 10; e2e/credentials.spec.ts sends a credential
      // to it), and the provider Test button the settings spec's fake model server (port + 11).
      TRELLIS_HTTP_ALLOWLIST: `127.0.0.1:${port + 10},127.0.0.1:${port + 11}`,
      // Python code nodes run on a code sandbox service; e2e/code-python.spec.ts serves a
      // dify-sandbox stand-in there (port + 12) while it runs.
      TRELLIS_CODE_SANDBOX_URL: `http://127.0.0.1:${port + 12}`,
      TRELLIS_ADMIN_EMAIL: "admin@trellis.local",
      TRELLIS_ADMIN_PASSWORD: "trellis-admin",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
    },
  },
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Runs `npm start`'s script with an environment and returns its exit code and stderr lines. */
function start(environment: Record<string, string>): { status: number | null; lines: string[] } {
  const result = spawnSync("npx", ["tsx", "--conditions=react-server", "scripts/start.ts"], {
    env: { ...process.env, TRELLIS_SKIP_BUILD: "1", ...environment },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, lines: result.stderr.split("\n").filter((line) => line.trim() !== "") };
}

describe("npm start with bad configuration", () => {
  it.each([
    [{ DATABASE_URL: "mysql://localhost/db" }, /^Trellis cannot start: DATABASE_URL: unsupported scheme "mysql:"/],
    [{ DATABASE_URL: "http//broken" }, /^Trellis cannot start: DATABASE_URL: is not a valid URL/],
    [
      { DATABASE_URL: "file:/etc/hostname/sub/trellis.db" },
      /^Trellis cannot start: DATABASE_URL: the data folder .* cannot be created/,
    ],
    [{ PORT: "eighty" }, /^Trellis cannot start: PORT: "eighty" is not a port number/],
    [
      { OPENAI_BASE_URL: "localhost:11434" },
      /^Trellis cannot start: OPENAI_BASE_URL: "localhost:11434" is not an http\(s\) URL/,
    ],
    [{ TRELLIS_SECRET_KEY: "short" }, /^Trellis cannot start: TRELLIS_SECRET_KEY: must be 32 bytes/],
    [
      { TRELLIS_TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" },
      /^Trellis cannot start: TRELLIS_TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR range$/,
    ],
    [{ TRELLIS_SCHEDULER: "sometimes" }, /^Trellis cannot start: TRELLIS_SCHEDULER: "sometimes" must be on or off/],
    [
      { TRELLIS_CODE_SANDBOX_URL: "sandbox:8194" },
      /^Trellis cannot start: TRELLIS_CODE_SANDBOX_URL: "sandbox:8194" is not an http\(s\) URL/,
    ],
    [
      { TRELLIS_CODE_SANDBOX_NETWORK: "yes" },
      /^Trellis cannot start: TRELLIS_CODE_SANDBOX_NETWORK: "yes" must be on or off/,
    ],
  ])("fails with one line naming the setting: %o", (environment, pattern) => {
    const { status, lines } = start(environment);
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });

  it("names missing migrations", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-empty-"));
    const { status, lines } = start({ TRELLIS_ROOT: root, DATABASE_URL: `file:${path.join(root, "x.db")}` });
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Trellis cannot start: migrations: no migrations found in .*prisma\/migrations/);
  });
});

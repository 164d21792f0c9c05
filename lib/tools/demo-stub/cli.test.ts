import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../../..");

describe("demo stub CLI", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill("SIGTERM");
  });

  it("starts, prints the environment for the tools and answers the APIs", async () => {
    child = spawn(
      process.execPath,
      [
        path.join(root, "node_modules/tsx/dist/cli.mjs"),
        "--conditions=react-server",
        "lib/tools/demo-stub/cli.ts",
        "--port",
        "0",
      ],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const output = await new Promise<string>((resolve, reject) => {
      let text = "";
      child?.stdout?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("TRELLIS_DEMO_API_URL=")) resolve(text);
      });
      child?.once("exit", (code) => reject(new Error(`exited with ${code}: ${text}`)));
    });
    const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(origin).toBeDefined();
    expect(output).toContain(`TRELLIS_WEATHER_FORECAST_URL=${origin}/v1/forecast`);
    const geocoding = await (await fetch(`${origin}/v1/search?name=Athens&count=1`)).json();
    expect(geocoding).toMatchObject({ results: [{ name: "Athens", latitude: 37.98376 }] });
    const rate = await (await fetch(`${origin}/v2/rate/EUR/USD`)).json();
    expect(rate).toEqual({ date: "2026-09-14", base: "EUR", quote: "USD", rate: 1.085 });
  }, 30_000);
});

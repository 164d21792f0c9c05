import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildApiExamples, exampleInputs } from "./api-examples";

const target = {
  origin: "http://127.0.0.1:3000",
  slug: "trip-planner",
  inputs: [
    { name: "city", type: "string" as const, required: true, description: "Where" },
    { name: "days", type: "number" as const, required: false, default: 3 },
    { name: "budget", type: "boolean" as const, required: false },
    { name: "notes", type: "string" as const, required: false, default: "it's O'Hare" },
  ],
  chatQueryInput: "city",
};

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => unknown;

describe("API examples of a published workflow", () => {
  const examples = buildApiExamples(target);

  it("fills in the real slug and every start input with a value of its type (defaults first)", () => {
    expect(exampleInputs(target.inputs)).toEqual({ city: "<city>", days: 3, budget: true, notes: "it's O'Hare" });
    // A typed array holds one example item of its element type.
    expect(
      exampleInputs([
        { name: "stops", type: "array<string>", required: true },
        { name: "weights", type: "array<number>", required: true },
        { name: "rows", type: "array<object>", required: true },
        { name: "any", type: "array", required: true },
      ]),
    ).toEqual({ stops: ["<stops>"], weights: [1], rows: [{}], any: [] });
    for (const text of [examples.curl, examples.curlStream, examples.fetchSse, examples.python]) {
      expect(text).toContain("http://127.0.0.1:3000/api/v1/workflows/trip-planner/run");
      expect(text).toContain('"city"');
    }
    expect(examples.openAiSdk).toContain('model: "trip-planner"');
    expect(examples.openAiSdk).toContain('baseURL: "http://127.0.0.1:3000/api/v1"');
    expect(examples.python).toContain('"days": 3');
    expect(examples.python).toContain('"budget": True');
    expect(examples.mcp).toContain("http://127.0.0.1:3000/api/v1/mcp");
  });

  it("the shell examples are valid sh, with the body quoted (an apostrophe in a default survives)", () => {
    for (const script of [examples.curl, examples.curlStream]) {
      expect(spawnSync("sh", ["-n", "-c", script]).status).toBe(0);
      // The -d argument, as the shell hands it to curl, is the JSON body.
      const echoed = spawnSync("sh", ["-c", `${script.replace(/^curl/, "printf '%s\\n'")}`], { encoding: "utf8" });
      const body = echoed.stdout.split("\n").find((line) => line.startsWith("{"));
      expect(JSON.parse(body ?? "null").inputs.notes).toBe("it's O'Hare");
    }
  });

  it("the JavaScript examples are valid modules (top-level await)", () => {
    expect(() => new AsyncFunction(examples.fetchSse)).not.toThrow();
    expect(() => new AsyncFunction(examples.openAiSdk.replace(/^import .*$/m, ""))).not.toThrow();
  });

  it.skipIf(spawnSync("python3", ["--version"]).status !== 0)("the Python example parses", () => {
    const result = spawnSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], {
      input: examples.python,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

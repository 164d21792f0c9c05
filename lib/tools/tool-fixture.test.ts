import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool";
import { createToolRegistry } from "./registry";
import { applyToolFixture } from "./tool-fixture";

const calls: Record<string, unknown>[] = [];
const echo = defineTool({
  name: "echo",
  description: "Echoes",
  parameters: z.object({ text: z.string(), size: z.number().int().max(5).optional() }),
  readOnly: true,
  execute: (args) => {
    calls.push(args);
    return args;
  },
});
const other = defineTool({
  name: "other",
  description: "Other",
  parameters: z.object({}),
  readOnly: true,
  execute: () => "ok",
});
const context = { signal: new AbortController().signal, credentials: {} };

describe("applyToolFixture", () => {
  it("fails the listed attempts, counts across registries of one run, and leaves other tools alone", async () => {
    const wrapped = new Map();
    const fixture = {
      tools: [{ tool: "echo", faults: [{ attempt: 2, error: "boom", code: "upstream_unavailable", retryable: true }] }],
    };
    const first = applyToolFixture(createToolRegistry([echo, other]), fixture, wrapped);
    expect(await first.get("echo")!.execute({ text: "a" }, context)).toMatchObject({ ok: true });
    // A node resolving its own registry later in the run sees attempt 2.
    const second = applyToolFixture(createToolRegistry([echo, other]), fixture, wrapped);
    expect(await second.get("echo")!.execute({ text: "b" }, context)).toEqual({
      ok: false,
      error: { code: "upstream_unavailable", message: "boom" },
      retryable: true,
    });
    expect(await second.get("echo")!.execute({ text: "c" }, context)).toMatchObject({ ok: true });
    expect(second.get("other")).toBe(other);
    expect(calls.map((args) => args.text)).toEqual(["a", "c"]);
  });

  it("forces arguments over the caller's, and the tool still validates them", async () => {
    calls.length = 0;
    const forced = applyToolFixture(createToolRegistry([echo]), {
      tools: [{ tool: "echo", faults: [], arguments: { size: 1 } }],
    });
    await forced.get("echo")!.execute({ text: "x", size: 3 }, context);
    expect(calls).toEqual([{ text: "x", size: 1 }]);
    const invalid = applyToolFixture(createToolRegistry([echo]), {
      tools: [{ tool: "echo", faults: [], arguments: { size: 9 } }],
    });
    expect(await invalid.get("echo")!.execute({ text: "x" }, context)).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });
});

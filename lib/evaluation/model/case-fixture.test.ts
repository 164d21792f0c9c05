import { describe, expect, it } from "vitest";
import { caseFixtureSchema } from "./case-fixture";
import { datasetCaseSchema } from "./dataset";
import { parseCsv, toCsv } from "./dataset-io";

const issues = (value: unknown) =>
  (caseFixtureSchema.safeParse(value).error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]);

describe("case fixtures", () => {
  it("defaults a fault to a retryable upstream_unavailable", () => {
    expect(caseFixtureSchema.parse({ tools: [{ tool: "t", faults: [{ attempt: 1, error: "503" }] }] })).toEqual({
      tools: [{ tool: "t", faults: [{ attempt: 1, error: "503", code: "upstream_unavailable", retryable: true }] }],
    });
  });

  it("names the field of each problem", () => {
    expect(issues({ tools: [] })).toEqual([["tools", "Give at least one tool"]]);
    expect(issues({ tools: [{ tool: "t" }] })).toEqual([
      ["tools.0.faults", "Give faults or arguments (or drop the fixture)"],
    ]);
    expect(issues({ tools: [{ tool: "t", faults: [{ attempt: 0, error: "x" }] }] })).toEqual([
      ["tools.0.faults.0.attempt", "Attempts count from 1"],
    ]);
    expect(
      issues({
        tools: [
          {
            tool: "t",
            faults: [
              { attempt: 1, error: "x" },
              { attempt: 1, error: "y" },
            ],
          },
          { tool: "t", arguments: {} },
        ],
      }),
    ).toEqual([
      ["tools.0.faults.1.attempt", "Attempt 1 has two faults"],
      ["tools.1.tool", 'Tool "t" is listed twice'],
    ]);
    expect(issues({ tools: [{ tool: "bad name", arguments: {} }] })).toEqual([
      ["tools.0.tool", "Tool names use letters, digits, _ and -"],
    ]);
  });

  it("travels through CSV in a fixture column, present only when a case has one", () => {
    const plain = datasetCaseSchema.parse({ id: "a" });
    const faulted = datasetCaseSchema.parse({
      id: "b",
      fixture: { tools: [{ tool: "t", arguments: { page_size: 1 } }] },
    });
    expect(toCsv([plain]).split("\n")[0]).toBe("id,name,tags,inputs,checks");
    const csv = toCsv([plain, faulted]);
    expect(csv.split("\n")[0]).toBe("id,name,tags,inputs,checks,fixture");
    const parsed = parseCsv(csv);
    expect(parsed.ok && parsed.cases).toEqual([plain, faulted]);
  });
});

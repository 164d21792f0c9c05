import { describe, expect, it } from "vitest";
import { DEFAULT_CODE } from "@/lib/workflow/nodes/code";
import { findCodeProblems } from "./code-lint";

describe("findCodeProblems (the sandbox's script rules)", () => {
  it("accepts the code node's default and a main function", () => {
    expect(findCodeProblems(DEFAULT_CODE)).toEqual([]);
    expect(
      findCodeProblems("async function main({ n }) { const x = await Promise.resolve(n); return { x }; }"),
    ).toEqual([]);
    expect(findCodeProblems("const total = 1 + 2;\ntotal")).toEqual([]);
  });

  it("refuses a top-level return, which the sandbox rejects as 'return not in a function'", () => {
    const problems = findCodeProblems("return { result: input };");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ from: 0, message: expect.stringContaining("inside a function") });
  });

  it("refuses await outside an async function, and syntax errors", () => {
    expect(findCodeProblems("function main() { await x; }")[0].message).toContain("async");
    expect(
      findCodeProblems("function main( { return 1 }").some((problem) => problem.message.startsWith("Syntax")),
    ).toBe(true);
  });
});

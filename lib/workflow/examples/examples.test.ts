import { describe, expect, it } from "vitest";
import { compileWorkflow } from "../compile";
import { exampleWorkflows } from "./index";

describe("example workflows", () => {
  it.each(exampleWorkflows.map((example) => [example.name, example] as const))(
    "%s compiles without issues",
    (_name, example) => {
      const result = compileWorkflow(example.document);
      if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
      expect(result.ok).toBe(true);
    },
  );

  it("has unique slugs", () => {
    const slugs = exampleWorkflows.map((example) => example.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

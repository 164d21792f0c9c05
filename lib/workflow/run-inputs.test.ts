import { describe, expect, it } from "vitest";
import { describeMissingInputs, missingRequiredInputs } from "./run-inputs";

describe("required run inputs", () => {
  const declared = [
    { name: "question", type: "string" as const, required: true },
    { name: "city", required: true, default: "Athens" },
    { name: "note", required: false },
    { name: "stake", type: "number" as const, required: true },
  ];

  it("lists required inputs without a value or default, in order", () => {
    expect(missingRequiredInputs(declared, {})).toEqual(["question", "stake"]);
    expect(missingRequiredInputs(declared, { question: "  ", stake: 0 })).toEqual(["question"]);
    expect(missingRequiredInputs(declared, { question: "hi", stake: 3 })).toEqual([]);
    expect(missingRequiredInputs(null, {})).toEqual([]);
  });

  it("says which inputs to fill in", () => {
    expect(describeMissingInputs(["question"])).toBe("Fill in the required input question.");
    expect(describeMissingInputs(["question", "city", "stake"])).toBe(
      "Fill in the required inputs question, city and stake.",
    );
  });
});

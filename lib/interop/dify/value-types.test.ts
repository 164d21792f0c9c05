import { describe, expect, it } from "vitest";
import { declaredTypeOfDify } from "./value-types";

describe("declaredTypeOfDify", () => {
  it("keeps Dify's types, arrays with their element type; other arrays untyped, the rest strings", () => {
    expect(
      [
        "string",
        "number",
        "boolean",
        "object",
        "array[string]",
        "array[number]",
        "array[boolean]",
        "array[object]",
      ].map(declaredTypeOfDify),
    ).toEqual([
      "string",
      "number",
      "boolean",
      "object",
      "array<string>",
      "array<number>",
      "array<boolean>",
      "array<object>",
    ]);
    expect(declaredTypeOfDify("array[file]")).toBe("array");
    expect(declaredTypeOfDify("array[any]")).toBe("array");
    expect(declaredTypeOfDify("secret")).toBe("string");
  });
});

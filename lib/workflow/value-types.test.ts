import { describe, expect, it } from "vitest";
import {
  declaredTypeJsonSchema,
  describeType,
  elementType,
  hasDeclaredType,
  isArrayLike,
  isTypedArray,
  typeAtPath,
  typeMismatch,
} from "./value-types";

describe("typed arrays", () => {
  it("are arrays whose items have the element type, for the compiler too", () => {
    for (const type of ["array<string>", "array<number>", "array<boolean>", "array<object>"] as const) {
      expect(isTypedArray(type)).toBe(true);
      expect(isArrayLike(type)).toBe(true);
    }
    expect(isTypedArray("array")).toBe(false);
    expect(isTypedArray("array<file>")).toBe(false);
    expect(elementType("array<number>")).toBe("number");
    expect(elementType("array")).toBe("any");
    expect(typeAtPath("array<boolean>", ["0"])).toBe("boolean");
    expect(typeAtPath("array<object>", ["2", "name"])).toBe("any");
    expect(typeAtPath("array<number>", ["name"])).toBeUndefined();
    expect(typeAtPath("string", ["0"])).toBeUndefined();
  });

  it("accept null items and refuse an item of another type, saying which", () => {
    expect(hasDeclaredType("array<number>", [1, null, 2.5])).toBe(true);
    expect(hasDeclaredType("array<number>", [1, Number.NaN])).toBe(false);
    expect(hasDeclaredType("array<boolean>", [true, "false"])).toBe(false);
    expect(hasDeclaredType("array<object>", [{}, []])).toBe(false);
    expect(typeMismatch("array<string>", ["a", "b", 3])).toBe("an array whose item 2 is a number");
    expect(typeMismatch("array<string>", "a,b")).toBe("a string");
    expect(typeMismatch("array<string>", [])).toBeUndefined();
  });

  it("are described in words and as JSON Schema", () => {
    expect(describeType("array<object>")).toBe("an array of objects");
    expect(describeType("object")).toBe("an object");
    expect(declaredTypeJsonSchema("array<string>")).toEqual({ type: "array", items: { type: "string" } });
    expect(declaredTypeJsonSchema("array")).toEqual({ type: "array" });
  });
});

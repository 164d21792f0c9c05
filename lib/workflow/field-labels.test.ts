import { describe, expect, it } from "vitest";
import { describeFieldPath, fieldLabel, fieldMessage, listItemLabel, optionLabel } from "./field-labels";

describe("field labels", () => {
  it("labels keys in words", () => {
    expect(fieldLabel("timeoutMs")).toBe("Timeout (ms)");
    expect(fieldLabel("maxTokens")).toBe("Max tokens");
    expect(fieldLabel("someNewKeyMs")).toBe("Some new key (ms)");
    expect(fieldLabel("url")).toBe("URL");
    expect(listItemLabel("inputs", 0)).toBe("Input 1");
  });

  it("names choices people know by another word, and leaves the rest as stored", () => {
    expect(optionLabel("language", "python3")).toBe("Python 3");
    expect(optionLabel("language", "javascript")).toBe("JavaScript");
    expect(optionLabel("reasoningFormat", "separated")).toBe("separated");
  });

  it("describes paths without dots or indexes", () => {
    expect(describeFieldPath(["data", "inputs", 0, "name"])).toBe("Name (input 1)");
    expect(describeFieldPath(["retry", "maxAttempts"])).toBe("Max attempts");
    expect(describeFieldPath(["cases", 1, "conditions", 0, "left"])).toBe("Left (case 2, condition 1)");
    expect(describeFieldPath(["outputs", 2])).toBe("Output 3");
    expect(describeFieldPath([])).toBe("Settings");
    // Inside a value edited as JSON, the place is a path into it.
    expect(describeFieldPath(["data", "jsonSchema", "properties", "city", "type"])).toBe(
      "JSON schema (properties.city.type)",
    );
    expect(describeFieldPath(["jsonSchema"])).toBe("JSON schema");
  });

  it("writes a message as a sentence after the field", () => {
    expect(fieldMessage(["inputs", 0, "name"], "Use letters, digits and underscores")).toBe(
      "Name (input 1): use letters, digits and underscores",
    );
    expect(fieldMessage(["url"], "URL is required")).toBe("URL: URL is required");
  });
});

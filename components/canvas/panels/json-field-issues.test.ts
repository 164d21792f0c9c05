import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServerCapabilitiesProvider } from "../server-capabilities";
import type { CanvasIssue } from "../store/types";
import { type FieldContext, SchemaField } from "./schema-form";

const issue: CanvasIssue = {
  code: "invalid_config",
  severity: "error",
  nodeId: "llm",
  path: ["data", "jsonSchema", "properties", "city", "type"],
  // As the compiler words it (fieldMessage): the field, then the place inside it.
  message:
    "JSON schema (properties.city.type): must be one of string, number, integer, boolean, object, array, null, or a list of them",
};

function renderJsonSchemaField(touched: string[]): string {
  const context: FieldContext = {
    nodeId: "llm",
    variables: [],
    bodyVariables: [],
    issues: [issue],
    touched: new Set(touched),
    onTouched: () => {},
    config: {},
  };
  const field = createElement(SchemaField, {
    name: "jsonSchema",
    schema: { type: "object", additionalProperties: {} },
    value: { type: "object", properties: { city: { type: "strng" } } },
    path: ["jsonSchema"],
    context,
    onChange: () => {},
  });
  return renderToStaticMarkup(createElement(ServerCapabilitiesProvider, { value: { pythonSandbox: true } }, field));
}

describe("a free-form JSON field (an LLM node's JSON schema)", () => {
  it("shows the issues inside it, saying where, once it or a place inside it was touched", () => {
    expect(renderJsonSchemaField([])).not.toContain("field-issue");
    for (const touched of [["jsonSchema"], ["jsonSchema.properties.city.type"]]) {
      const html = renderJsonSchemaField(touched);
      expect(html).toContain('data-testid="field-issue"');
      expect(html).toContain("JSON schema (properties.city.type): must be one of string");
      expect(html).toContain('aria-invalid="true"');
    }
  });
});

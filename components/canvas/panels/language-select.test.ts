import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServerCapabilitiesProvider } from "../server-capabilities";
import { type FieldContext, SchemaField } from "./schema-form";

const context: FieldContext = {
  nodeId: "code_1",
  variables: [],
  bodyVariables: [],
  issues: [],
  touched: new Set(),
  onTouched: () => {},
  config: {},
};

function renderLanguage(value: string, pythonSandbox: boolean): string {
  const field = createElement(SchemaField, {
    name: "language",
    schema: { type: "string", enum: ["javascript", "python3"] },
    value,
    path: ["language"],
    context,
    onChange: () => {},
  });
  return renderToStaticMarkup(createElement(ServerCapabilitiesProvider, { value: { pythonSandbox } }, field));
}

describe("the code node's language field", () => {
  it("names the choices in words", () => {
    const html = renderLanguage("javascript", true);
    expect(html).toContain('<option value="javascript" selected="">JavaScript</option>');
    expect(html).toContain('<option value="python3">Python 3</option>');
  });

  it("warns at once when Python is chosen on a server without a code sandbox service, and only then", () => {
    expect(renderLanguage("python3", false)).toContain('data-testid="python-sandbox-missing"');
    expect(renderLanguage("python3", false)).toContain("TRELLIS_CODE_SANDBOX_URL");
    expect(renderLanguage("python3", true)).not.toContain("python-sandbox-missing");
    expect(renderLanguage("javascript", false)).not.toContain("python-sandbox-missing");
  });
});

import { describe, expect, it } from "vitest";
import { compileWorkflow } from "../compile";
import { workflowDocumentSchema } from "../document";
import { workflowTemplates } from "./index";

describe("workflow templates", () => {
  it("offers the seeded examples and at least five more, with unique slugs", () => {
    expect(workflowTemplates.length).toBeGreaterThanOrEqual(8);
    expect(new Set(workflowTemplates.map((template) => template.slug)).size).toBe(workflowTemplates.length);
  });

  it.each(workflowTemplates.map((template) => [template.name, template] as const))(
    "%s is a valid document that compiles without issues",
    (_name, template) => {
      expect(workflowDocumentSchema.safeParse(template.document).success).toBe(true);
      const result = compileWorkflow(template.document, {
        knownToolNames: [
          "get_current_weather",
          "convert_currency",
          "search_tickets",
          "search_meeting_notes",
          "calculator",
        ],
      });
      if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
      expect(result.ok).toBe(true);
    },
  );
});

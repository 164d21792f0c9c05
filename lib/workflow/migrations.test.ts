import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { CURRENT_SCHEMA_VERSION } from "./document";
import {
  flattenNodeConfigMigration,
  MIGRATIONS,
  migrateDocument,
  renameEdgeHandlesMigration,
  renameNodeTypesMigration,
  seedToolSchemaMigration,
  stickyNotesMigration,
} from "./migrations";
import { minimalDocument } from "./testing/build-document";

const position = { x: 0, y: 0 };

describe("v1-flatten-node-config", () => {
  it("moves data.config up next to the title, without mutating the input", () => {
    const input = {
      schemaVersion: 1,
      nodes: [
        { id: "a", type: "llm", position, data: { title: "Ask", config: { userPrompt: "hi", title: "ignored" } } },
      ],
      edges: [],
    };
    const snapshot = JSON.stringify(input);
    const output = flattenNodeConfigMigration.up(input);
    expect(output.nodes).toEqual([{ id: "a", type: "llm", position, data: { title: "Ask", userPrompt: "hi" } }]);
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it("leaves nodes without a config object alone", () => {
    const input = { nodes: [{ id: "a", data: { title: "x", config: "nope" } }, 7] };
    expect(flattenNodeConfigMigration.up(input)).toEqual(input);
  });
});

describe("v1-rename-edge-handles", () => {
  it("renames source/target handles and the if-else false branch", () => {
    const output = renameEdgeHandlesMigration.up({
      nodes: [
        { id: "check", type: "if-else" },
        { id: "t", type: "template" },
      ],
      edges: [
        { id: "e1", source: "t", sourceHandle: "source", target: "check", targetHandle: "target" },
        { id: "e2", source: "check", sourceHandle: "false", target: "t" },
        { id: "e3", source: "t", sourceHandle: "false", target: "check" },
      ],
    });
    expect(output.edges).toEqual([
      { id: "e1", source: "t", sourceHandle: "out", target: "check", targetHandle: "in" },
      { id: "e2", source: "check", sourceHandle: "else", target: "t" },
      { id: "e3", source: "t", sourceHandle: "false", target: "check" },
    ]);
  });
});

describe("v1-rename-node-types", () => {
  it("turns answer into end with one output, and if-else into condition", () => {
    const output = renameNodeTypesMigration.up({
      nodes: [
        { id: "a", type: "answer", data: { title: "A", answer: "{{x.text}}" } },
        { id: "b", type: "answer", data: { title: "B", outputs: [] } },
        { id: "c", type: "if-else", data: { title: "C", cases: [] } },
      ],
    });
    expect(output.nodes).toEqual([
      { id: "a", type: "end", data: { title: "A", outputs: [{ name: "answer", value: "{{x.text}}" }] } },
      { id: "b", type: "end", data: { title: "B", outputs: [] } },
      { id: "c", type: "condition", data: { title: "C", cases: [] } },
    ]);
  });
});

describe("migrateDocument", () => {
  it("runs every v1 step in order and stamps the current version", () => {
    const result = migrateDocument({
      schemaVersion: 1,
      nodes: [
        { id: "start", type: "start", position, data: { title: "Start", config: { inputs: [] } } },
        { id: "check", type: "if-else", position, data: { title: "Check", config: { cases: [] } } },
      ],
      edges: [{ id: "e", source: "check", sourceHandle: "false", target: "start" }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.applied).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(result.document.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    expect(result.document.nodes[1]).toMatchObject({ type: "condition", data: { title: "Check", cases: [] } });
    expect(result.document.edges[0].sourceHandle).toBe("else");
  });

  it("applies nothing to a current document", () => {
    expect(migrateDocument(minimalDocument())).toMatchObject({ ok: true, applied: [] });
  });

  it("rejects a future version with a clear issue", () => {
    const result = migrateDocument({ ...minimalDocument(), schemaVersion: CURRENT_SCHEMA_VERSION + 1 });
    expect(result).toMatchObject({
      ok: false,
      issues: [{ code: "unsupported_schema_version", severity: "error", path: ["schemaVersion"] }],
    });
    if (!result.ok) expect(result.issues[0].message).toMatch(/Upgrade Trellis/);
  });

  it("rejects missing or malformed versions", () => {
    for (const schemaVersion of [undefined, 0, 1.5, "2"]) {
      expect(migrateDocument({ ...minimalDocument(), schemaVersion })).toMatchObject({
        ok: false,
        issues: [{ code: "invalid_document", path: ["schemaVersion"] }],
      });
    }
  });

  it("reports the shape problems left after migration with the node id", () => {
    const result = migrateDocument({
      schemaVersion: 1,
      nodes: [{ id: "x", type: "llm", data: { title: "X" } }],
      edges: [],
    });
    expect(result).toMatchObject({
      ok: false,
      issues: [{ code: "invalid_document", nodeId: "x", path: ["nodes", 0, "position"] }],
    });
  });

  it("turns a throwing step into migration_failed", () => {
    const hostileNode = {
      id: "a",
      get data(): never {
        throw new Error("unreadable");
      },
    };
    const result = migrateDocument({ schemaVersion: 1, nodes: [hostileNode], edges: [] });
    expect(result).toMatchObject({ ok: false, issues: [{ code: "migration_failed" }] });
    if (!result.ok) expect(result.issues[0].message).toContain("v1-flatten-node-config");
  });
});

describe("v2-seed-003-tool-schemas", () => {
  const v2 = () => ({
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position, data: { title: "Start" } },
      {
        id: "fx",
        type: "tool",
        position,
        data: {
          title: "Convert",
          tool: "convert_currency",
          arguments: { amount: "{{start.amount}}", from: "EUR", to: "USD" },
        },
      },
      {
        id: "fx2",
        type: "tool",
        position,
        data: {
          title: "Convert JSON",
          tool: "convert_currency",
          argumentsTemplate: '{"amount": 5, "from": "EUR", "to": "GBP"}',
        },
      },
      {
        id: "wx",
        type: "tool",
        position,
        data: { title: "Weather", tool: "get_current_weather", arguments: { city: "Athens" } },
      },
      {
        id: "say",
        type: "template",
        position,
        data: {
          title: "Say",
          template:
            "{{fx.result.converted_amount}} {{fx.result.to}} from {{ fx.result.from }}; {{wx.result.temperature_c}} C; {{other.result.from}}",
        },
      },
      {
        id: "end",
        type: "end",
        position,
        data: { title: "End", outputs: [{ name: "currency", value: ["fx", "result", "to"] }] },
      },
    ],
    edges: [],
  });

  it("renames convert_currency arguments and references to the renamed result fields, without mutating", () => {
    const input = v2();
    const snapshot = JSON.stringify(input);
    const output = seedToolSchemaMigration.up(input) as { nodes: Array<{ id: string; data: Record<string, unknown> }> };
    const byId = Object.fromEntries(output.nodes.map((node) => [node.id, node.data]));
    expect(byId.fx.arguments).toEqual({ amount: "{{start.amount}}", from_currency: "EUR", to_currency: "USD" });
    expect(JSON.parse(String(byId.fx2.argumentsTemplate))).toEqual({
      amount: 5,
      from_currency: "EUR",
      to_currency: "GBP",
    });
    expect(byId.wx.arguments).toEqual({ city: "Athens" });
    expect(byId.say.template).toBe(
      "{{fx.result.converted_amount}} {{fx.result.to_currency}} from {{ fx.result.from_currency }}; {{wx.result.temperature}} C; {{other.result.from}}",
    );
    expect(byId.end.outputs).toEqual([{ name: "currency", value: ["fx", "result", "to_currency"] }]);
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it("runs for v2 documents through migrateDocument and leaves documents without those tools alone", () => {
    const result = migrateDocument(v2());
    expect(result).toMatchObject({ ok: true, applied: ["v2-seed-003-tool-schemas", "v3-sticky-notes"] });
    if (result.ok) expect(result.document.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    const plain = { nodes: [{ id: "t", type: "template", data: { template: "{{a.result.from}}" } }] };
    expect(seedToolSchemaMigration.up(plain)).toEqual(plain);
  });
});

describe("v3-sticky-notes", () => {
  it("gives a v3 document an empty notes list and keeps existing notes", () => {
    const v3 = { ...minimalDocument(), schemaVersion: 3 };
    const result = migrateDocument(v3);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.applied).toEqual(["v3-sticky-notes"]);
    expect(result.document.schemaVersion).toBe(4);
    expect(result.document.notes).toEqual([]);
    const note = { id: "n1", position, width: 200, height: 120, text: "# Hi", color: "blue" };
    expect(stickyNotesMigration.up({ ...v3, notes: [note] }).notes).toEqual([note]);
  });

  it("keeps notes through validation and refuses a malformed one", () => {
    const note = { id: "n1", position, width: 200, height: 120, text: "**why**", color: "green" };
    const kept = migrateDocument({ ...minimalDocument(), notes: [note] });
    expect(kept).toMatchObject({ ok: true, document: { notes: [note] } });
    const bad = migrateDocument({ ...minimalDocument(), notes: [{ ...note, color: "red" }] });
    expect(bad).toMatchObject({ ok: false, issues: [{ code: "invalid_document", path: ["notes", 0, "color"] }] });
  });

  it("is ignored by the compiler: a note changes neither the issues nor the compiled nodes", () => {
    const note = { id: "start", position, width: 200, height: 120, text: "{{nowhere.text}}", color: "yellow" };
    const plain = compileWorkflow(minimalDocument());
    const noted = compileWorkflow({ ...minimalDocument(), notes: [note] });
    expect(noted.ok).toBe(true);
    if (plain.ok && noted.ok) expect(Object.keys(noted.workflow.nodes)).toEqual(Object.keys(plain.workflow.nodes));
  });
});

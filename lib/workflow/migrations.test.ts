import { describe, expect, it } from "vitest";
import { CURRENT_SCHEMA_VERSION } from "./document";
import {
  flattenNodeConfigMigration,
  MIGRATIONS,
  migrateDocument,
  renameEdgeHandlesMigration,
  renameNodeTypesMigration,
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

import { CURRENT_SCHEMA_VERSION, type WorkflowDocument, workflowDocumentSchema } from "./document";
import { createIssue, type WorkflowIssue } from "./issues";

/** A document as stored, before validation; migrations only rely on what they check. */
export type RawDocument = Record<string, unknown>;

/**
 * One named upgrade step. Steps with the same `fromVersion` run in list order, and the version
 * is bumped after the last of them, so a step may rely on the ones listed before it.
 */
export interface Migration {
  /** Stable name, reported in `applied`. */
  name: string;
  /** The schema version this step upgrades from. */
  fromVersion: number;
  /** What changed in the schema, for people. */
  description: string;
  /** Returns an upgraded copy; never mutates its input. */
  up: (document: RawDocument) => RawDocument;
}

/** The outcome of `migrateDocument`. */
export type MigrationResult =
  | { ok: true; document: WorkflowDocument; applied: string[] }
  | { ok: false; issues: WorkflowIssue[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mapArray(document: RawDocument, key: "nodes" | "edges", map: (item: RawDocument) => RawDocument): RawDocument {
  const items = document[key];
  if (!Array.isArray(items)) return document;
  return { ...document, [key]: items.map((item) => (isRecord(item) ? map(item) : item)) };
}

/** v1 stored the config under `data.config`; v2 flattens it next to `title`. */
export const flattenNodeConfigMigration: Migration = {
  name: "v1-flatten-node-config",
  fromVersion: 1,
  description: "Move node.data.config fields up into node.data.",
  up: (document) =>
    mapArray(document, "nodes", (node) => {
      const data = node.data;
      if (!isRecord(data) || !isRecord(data.config)) return node;
      const { config, ...rest } = data;
      // Fields outside `config` win: in v1 they were the node's own (title, position hints).
      return { ...node, data: { ...config, ...rest } };
    }),
};

/**
 * v1 used React Flow's `source`/`target` handle names and `true`/`false` on if-else; v2 uses
 * `out`/`in` and `else`. Runs before the type rename, which erases which nodes were if-else.
 */
export const renameEdgeHandlesMigration: Migration = {
  name: "v1-rename-edge-handles",
  fromVersion: 1,
  description: 'Rename handles "source" to "out", "target" to "in", and if-else "false" to "else".',
  up: (document) => {
    const ifElseIds = new Set<string>();
    if (Array.isArray(document.nodes)) {
      for (const node of document.nodes) {
        if (isRecord(node) && node.type === "if-else" && typeof node.id === "string") ifElseIds.add(node.id);
      }
    }
    return mapArray(document, "edges", (edge) => {
      const upgraded = { ...edge };
      if (edge.sourceHandle === "source") upgraded.sourceHandle = "out";
      if (edge.targetHandle === "target") upgraded.targetHandle = "in";
      if (typeof edge.source === "string" && ifElseIds.has(edge.source) && edge.sourceHandle === "false") {
        upgraded.sourceHandle = "else";
      }
      return upgraded;
    });
  },
};

/** v1's `answer` is v2's `end` (its single `answer` template becomes one output); `if-else` is `condition`. */
export const renameNodeTypesMigration: Migration = {
  name: "v1-rename-node-types",
  fromVersion: 1,
  description: 'Rename node types "answer" to "end" and "if-else" to "condition".',
  up: (document) =>
    mapArray(document, "nodes", (node) => {
      if (node.type === "if-else") return { ...node, type: "condition" };
      if (node.type !== "answer") return node;
      if (!isRecord(node.data) || node.data.outputs !== undefined || typeof node.data.answer !== "string") {
        return { ...node, type: "end" };
      }
      const { answer, ...data } = node.data;
      return { ...node, type: "end", data: { ...data, outputs: [{ name: "answer", value: answer }] } };
    }),
};

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  flattenNodeConfigMigration,
  renameEdgeHandlesMigration,
  renameNodeTypesMigration,
];

function idAt(raw: RawDocument, key: "nodes" | "edges", index: unknown): string | undefined {
  const items = raw[key];
  if (!Array.isArray(items) || typeof index !== "number") return undefined;
  const item = items[index];
  return isRecord(item) && typeof item.id === "string" && item.id !== "" ? item.id : undefined;
}

/** Validates the upgraded document, pinning zod issues to the node or edge they are in. */
function validate(raw: RawDocument): { ok: true; document: WorkflowDocument } | { ok: false; issues: WorkflowIssue[] } {
  const parsed = workflowDocumentSchema.safeParse(raw);
  if (parsed.success) return { ok: true, document: parsed.data };
  const issues = parsed.error.issues.map((zodIssue) => {
    const path = zodIssue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
    const [collection, index] = path;
    const nodeId = collection === "nodes" ? idAt(raw, "nodes", index) : undefined;
    const edgeId = collection === "edges" ? idAt(raw, "edges", index) : undefined;
    return createIssue("invalid_document", `${path.join(".") || "document"}: ${zodIssue.message}`, {
      nodeId,
      edgeId,
      path,
    });
  });
  return { ok: false, issues };
}

/**
 * Brings a stored document up to CURRENT_SCHEMA_VERSION and validates its shape. Never throws:
 * a failing step becomes a `migration_failed` issue naming the step.
 */
export function migrateDocument(raw: unknown): MigrationResult {
  if (!isRecord(raw)) {
    return { ok: false, issues: [createIssue("invalid_document", "A workflow document must be a JSON object")] };
  }
  const version = raw.schemaVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    return {
      ok: false,
      issues: [
        createIssue("invalid_document", "schemaVersion must be a positive integer", { path: ["schemaVersion"] }),
      ],
    };
  }
  if (version > CURRENT_SCHEMA_VERSION) {
    const message = `This document uses schema version ${version}, but this Trellis build reads up to ${CURRENT_SCHEMA_VERSION}. Upgrade Trellis to open it.`;
    return { ok: false, issues: [createIssue("unsupported_schema_version", message, { path: ["schemaVersion"] })] };
  }
  let document = raw;
  const applied: string[] = [];
  for (let from = version; from < CURRENT_SCHEMA_VERSION; from++) {
    for (const migration of MIGRATIONS) {
      if (migration.fromVersion !== from) continue;
      try {
        document = migration.up(document);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const message = `Migration ${migration.name} failed: ${reason}`;
        return { ok: false, issues: [createIssue("migration_failed", message, { path: ["schemaVersion"] })] };
      }
      applied.push(migration.name);
    }
    document = { ...document, schemaVersion: from + 1 };
  }
  const validated = validate(document);
  return validated.ok ? { ok: true, document: validated.document, applied } : validated;
}

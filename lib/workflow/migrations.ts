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

/** Old argument names of the built-in tools, by tool: seed 003's names replaced them. */
const RENAMED_TOOL_ARGUMENTS: Record<string, Record<string, string>> = {
  convert_currency: { from: "from_currency", to: "to_currency" },
};

/** Old result fields of the built-in tools that seed 003's schema renamed. */
const RENAMED_TOOL_RESULT_FIELDS: Record<string, Record<string, string>> = {
  convert_currency: { from: "from_currency", to: "to_currency" },
  get_current_weather: { temperature_c: "temperature" },
};

function renameKeys(value: Record<string, unknown>, renames: Record<string, string>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const target = renames[key];
    renamed[target && !(target in value) ? target : key] = entry;
  }
  return renamed;
}

/** Applies `map` to every string inside `value` (objects and arrays copied, nothing mutated). */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `convert_currency` takes and returns seed 003's `{ amount, from_currency, to_currency }` (it
 * took `{ amount, from, to }`), and `get_current_weather` returns `temperature` (not
 * `temperature_c`). Tool nodes calling them get their argument mapping renamed (and a JSON
 * `argumentsTemplate`), and references to their old result fields — `{{node.result.from}}` in
 * any text, `["node", "result", "from"]` selectors — point at the new fields.
 */
export const seedToolSchemaMigration: Migration = {
  name: "v2-seed-003-tool-schemas",
  fromVersion: 2,
  description:
    'Rename convert_currency arguments "from"/"to" to "from_currency"/"to_currency", and references to the renamed result fields.',
  up: (document) => {
    const resultRenames = new Map<string, Record<string, string>>();
    if (Array.isArray(document.nodes)) {
      for (const node of document.nodes) {
        if (!isRecord(node) || node.type !== "tool" || !isRecord(node.data) || typeof node.id !== "string") continue;
        const renames = typeof node.data.tool === "string" ? RENAMED_TOOL_RESULT_FIELDS[node.data.tool] : undefined;
        if (renames) resultRenames.set(node.id, renames);
      }
    }
    const withArguments = mapArray(document, "nodes", (node) => {
      if (node.type !== "tool" || !isRecord(node.data) || typeof node.data.tool !== "string") return node;
      const renames = RENAMED_TOOL_ARGUMENTS[node.data.tool];
      if (!renames) return node;
      const data = { ...node.data };
      if (isRecord(data.arguments)) data.arguments = renameKeys(data.arguments, renames);
      if (typeof data.argumentsTemplate === "string" && data.argumentsTemplate.trim().startsWith("{")) {
        try {
          const parsed: unknown = JSON.parse(data.argumentsTemplate);
          if (isRecord(parsed)) data.argumentsTemplate = JSON.stringify(renameKeys(parsed, renames));
        } catch {
          // A template that is not JSON text (a reference) is resolved at run time; nothing to rename.
        }
      }
      return { ...node, data };
    });
    if (resultRenames.size === 0) return withArguments;
    const renameReferences = (text: string) => {
      let result = text;
      for (const [nodeId, renames] of resultRenames) {
        for (const [oldField, newField] of Object.entries(renames)) {
          const pattern = new RegExp(
            `(\\{\\{\\s*${escapeRegExp(nodeId)}\\.result\\.)${escapeRegExp(oldField)}(?=\\s*\\}\\}|\\.|\\[)`,
            "g",
          );
          result = result.replace(pattern, `$1${newField}`);
        }
      }
      return result;
    };
    return mapArray(withArguments, "nodes", (node) => {
      if (!isRecord(node.data)) return node;
      const data = mapStrings(node.data, renameReferences) as Record<string, unknown>;
      return { ...node, data: renameSelectors(data, resultRenames) };
    });
  },
};

/** Selectors `[nodeId, "result", oldField, ...]` anywhere in `value` point at the renamed field. */
function renameSelectors(
  value: Record<string, unknown>,
  renames: Map<string, Record<string, string>>,
): Record<string, unknown> {
  const visit = (item: unknown): unknown => {
    if (Array.isArray(item)) {
      const [nodeId, result, field] = item;
      if (typeof nodeId === "string" && result === "result" && typeof field === "string") {
        const target = renames.get(nodeId)?.[field];
        if (target) return [nodeId, result, target, ...item.slice(3)];
      }
      return item.map(visit);
    }
    if (isRecord(item)) return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, visit(entry)]));
    return item;
  };
  return visit(value) as Record<string, unknown>;
}

/**
 * v4 adds sticky notes, a top-level `notes` list beside `nodes` and `edges`. A v3 document gets
 * an empty list. The version is bumped (rather than the field just being optional) because a v3
 * build parses documents with a zod object that drops unknown keys: it would silently delete the
 * notes on its next save, whereas it refuses a v4 document as too new.
 */
export const stickyNotesMigration: Migration = {
  name: "v3-sticky-notes",
  fromVersion: 3,
  description: "Add the sticky notes list (empty).",
  up: (document) => (Array.isArray(document.notes) ? document : { ...document, notes: [] }),
};

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  flattenNodeConfigMigration,
  renameEdgeHandlesMigration,
  renameNodeTypesMigration,
  seedToolSchemaMigration,
  stickyNotesMigration,
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

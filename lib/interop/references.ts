import type { WorkflowDocument, WorkflowNode } from "../workflow/document";
import type { ReferenceKind, ReferenceMapping, WorkspaceInventory, WorkspaceReference } from "./report";

/** A workspace reference found in a document: what, by name, and which nodes use it. */
export interface DocumentReference {
  kind: Exclude<ReferenceKind, "tool-source">;
  name: string;
  nodeIds: string[];
}

const MODEL_FIELDS = ["model", "synthesizerModel"] as const;

function modelProvider(value: unknown): string | undefined {
  const provider = (value as { provider?: unknown } | undefined)?.provider;
  return typeof provider === "string" && provider !== "" ? provider : undefined;
}

function referencesOf(node: WorkflowNode): { kind: DocumentReference["kind"]; name: string }[] {
  const data = node.data as Record<string, unknown>;
  const found: { kind: DocumentReference["kind"]; name: string }[] = [];
  if (node.type === "tool") {
    if (typeof data.tool === "string" && data.tool !== "" && !data.tool.includes("{{"))
      found.push({ kind: "tool", name: data.tool });
    if (typeof data.unresolvedTool === "string") found.push({ kind: "tool", name: data.unresolvedTool });
  }
  if (node.type === "agent") {
    for (const key of ["tools", "unresolvedTools"]) {
      const tools = data[key];
      if (Array.isArray(tools))
        for (const tool of tools) if (typeof tool === "string") found.push({ kind: "tool", name: tool });
    }
  }
  if (node.type === "http" && typeof data.credential === "string" && data.credential !== "") {
    found.push({ kind: "credential", name: data.credential });
  }
  for (const field of MODEL_FIELDS) {
    const provider = modelProvider(data[field]);
    if (provider && provider !== "default") found.push({ kind: "provider", name: provider });
  }
  return found;
}

/** Every tool, HTTP credential and model provider a document refers to, by name (never a secret). */
export function collectDocumentReferences(document: WorkflowDocument): DocumentReference[] {
  const byKey = new Map<string, DocumentReference>();
  for (const node of document.nodes) {
    for (const reference of referencesOf(node)) {
      const key = `${reference.kind}:${reference.name}`;
      const existing = byKey.get(key);
      if (existing) {
        if (!existing.nodeIds.includes(node.id)) existing.nodeIds.push(node.id);
      } else byKey.set(key, { ...reference, nodeIds: [node.id] });
    }
  }
  return [...byKey.values()];
}

const LISTS: Record<DocumentReference["kind"], keyof WorkspaceInventory> = {
  tool: "tools",
  credential: "credentials",
  provider: "providers",
};

const NOUNS: Record<DocumentReference["kind"], string> = {
  tool: "tool",
  credential: "HTTP credential",
  provider: "model provider",
};

/**
 * Checks references against the target workspace: `available`, and the names the user may map a
 * missing one to. `known` carries the importer's own messages (e.g. which Dify plugin a tool was).
 */
export function resolveReferences(
  references: readonly DocumentReference[],
  inventory: WorkspaceInventory,
  known: readonly WorkspaceReference[] = [],
): WorkspaceReference[] {
  return references.map((reference) => {
    const list = inventory[LISTS[reference.kind]];
    const available = list.includes(reference.name);
    const message =
      known.find((item) => item.kind === reference.kind && item.name === reference.name)?.message ??
      (available
        ? `The ${NOUNS[reference.kind]} "${reference.name}" exists here`
        : `The ${NOUNS[reference.kind]} "${reference.name}" does not exist in this workspace: map it to one that does, or create it`);
    return {
      kind: reference.kind,
      name: reference.name,
      nodeIds: reference.nodeIds,
      available,
      candidates: [...list].sort(),
      message,
    };
  });
}

/** Returns a copy of the document with references renamed as mapped (missing entries are left alone). */
export function applyReferenceMapping(
  document: WorkflowDocument,
  mapping: ReferenceMapping | undefined,
): WorkflowDocument {
  if (!mapping) return document;
  const tools = mapping.tools ?? {};
  const credentials = mapping.credentials ?? {};
  const providers = mapping.providers ?? {};
  const mapped = (table: Record<string, string>, name: string): string | undefined =>
    Object.hasOwn(table, name) && table[name] !== "" ? table[name] : undefined;
  const nodes = document.nodes.map((node) => {
    const data: Record<string, unknown> = { ...node.data };
    if (node.type === "tool") {
      const name = typeof data.unresolvedTool === "string" ? data.unresolvedTool : String(data.tool ?? "");
      const target = mapped(tools, name);
      if (target) {
        data.tool = target;
        delete data.unresolvedTool;
      }
    }
    if (node.type === "agent") {
      const current = Array.isArray(data.tools) ? (data.tools as string[]) : [];
      const unresolved = Array.isArray(data.unresolvedTools) ? (data.unresolvedTools as string[]) : [];
      const next = current.map((tool) => mapped(tools, tool) ?? tool);
      const still: string[] = [];
      for (const tool of unresolved) {
        const target = mapped(tools, tool);
        if (target) next.push(target);
        else still.push(tool);
      }
      data.tools = [...new Set(next)];
      if (still.length > 0) data.unresolvedTools = still;
      else delete data.unresolvedTools;
    }
    if (node.type === "http" && typeof data.credential === "string") {
      data.credential = mapped(credentials, data.credential) ?? data.credential;
    }
    for (const field of MODEL_FIELDS) {
      const model = data[field] as { provider?: string; model?: string } | undefined;
      const provider = modelProvider(model);
      const target = provider ? mapped(providers, provider) : undefined;
      if (model && target) data[field] = { ...model, provider: target };
    }
    return { ...node, data: data as WorkflowNode["data"] };
  });
  return { ...document, nodes };
}

import type { WorkflowIssue } from "../workflow/issues";

/** How one source node came across. */
export type NodeImportStatus = "mapped" | "changed" | "unsupported";

/** One line of the import report per source node. */
export interface NodeImportEntry {
  /** Id of the node in the imported document (sanitized from the source id when needed). */
  nodeId: string;
  /** The node's id in the source file. */
  sourceId: string;
  /** The source's node type, e.g. `llm`, `if-else`, `knowledge-retrieval`. */
  sourceType: string;
  /** Title as written in the source file. */
  title: string;
  /** `mapped`: same behaviour; `changed`: mapped with the listed differences; `unsupported`: left as a placeholder. */
  status: NodeImportStatus;
  /** The Trellis node type it became (a placeholder is a `template` node marked unsupported). */
  trellisType: string;
  /** What differs from the source, for people; empty when `mapped`. */
  changes: string[];
  /** Why the node could not be mapped (`unsupported` only). */
  reason?: string;
}

/** Kinds of things a workflow refers to that live in the workspace, not the document. */
export type ReferenceKind = "tool" | "credential" | "provider" | "tool-source";

/** A reference the imported workflow needs from the target workspace. */
export interface WorkspaceReference {
  /** What is referred to. */
  kind: ReferenceKind;
  /** The name as written in the file (for Dify tools `provider/tool`). */
  name: string;
  /** Nodes that use it. */
  nodeIds: string[];
  /** Whether the target workspace has it (after any mapping). */
  available: boolean;
  /** What the user can pick instead, from the target workspace. */
  candidates: string[];
  /** For people: what it is and what to do. */
  message: string;
}

/** A secret the file carried (or would need): never stored, only named so someone can fill it in. */
export interface SecretSlot {
  /** Where the secret belonged. */
  kind: "http-credential" | "environment-variable" | "tool-credential";
  /** Name of the empty slot: the HTTP credential name the node now points at, or the variable name. */
  name: string;
  /** The node that needs it, when there is one. */
  nodeId?: string;
  /** Dotted path of the secret in the source file. */
  sourcePath: string;
  /** Whether the file held a value (which was discarded) or only the slot. */
  hadValue: boolean;
  /** For people. */
  message: string;
}

/** The full report shown before saving and returned by the import API. */
export interface ImportReport {
  /** Source format. */
  format: "dify" | "trellis";
  /** What the file says about itself. */
  source: { name: string; mode?: string; version?: string };
  /** One entry per source node, in file order. */
  nodes: NodeImportEntry[];
  /** Secrets turned into empty slots. */
  secrets: SecretSlot[];
  /** Workspace references and whether the target has them. */
  references: WorkspaceReference[];
  /** Everything else worth knowing: variables mapped, features ignored, notes kept. */
  notes: string[];
  /** Whether the imported document compiles, and the issues when it does not. */
  compile: { ok: boolean; issues: WorkflowIssue[] };
  /** Counts per status, for the summary line. */
  summary: Record<NodeImportStatus, number>;
}

/** How the user maps missing references onto what the target workspace has, by kind then name. */
export interface ReferenceMapping {
  /** Tool name (or Dify `provider/tool`) → a tool name of the workspace. */
  tools?: Record<string, string>;
  /** HTTP credential name → a credential name of the workspace. */
  credentials?: Record<string, string>;
  /** Model provider name → a provider name of the workspace (or `default`). */
  providers?: Record<string, string>;
}

/** What the target workspace has, as names. */
export interface WorkspaceInventory {
  /** Tool names the agent/tool nodes can use. */
  tools: string[];
  /** HTTP credential names. */
  credentials: string[];
  /** Model provider names (`default` is always there). */
  providers: string[];
}

/** Counts entries per status. */
export function summarize(nodes: readonly NodeImportEntry[]): Record<NodeImportStatus, number> {
  const summary: Record<NodeImportStatus, number> = { mapped: 0, changed: 0, unsupported: 0 };
  for (const node of nodes) summary[node.status]++;
  return summary;
}

import type { ToolSourceView } from "./tool-source-config";

/**
 * What the settings API answers and the settings pages render (isomorphic: services build these,
 * components read them). No secrets ever appear in these shapes.
 */

/** A member as the members page lists them. */
export interface MemberView {
  /** User id. */
  userId: string;
  /** Sign-in e-mail. */
  email: string;
  /** Display name. */
  name: string;
  /** Role in this workspace (owner, admin, editor or viewer). */
  role: string;
  /** When they joined the workspace. */
  joinedAt: string;
}

/** What the settings page says about how models resolve on this server. */
export interface ModelMode {
  /** True when the `default` provider answers with the offline demo model. */
  demoMode: boolean;
  /** True when OPENAI_API_KEY or OPENAI_BASE_URL configures the `default` provider. */
  defaultProviderConfigured: boolean;
  /** False when TRELLIS_DEMO_MODEL=off removes the demo model entirely. */
  demoModelAvailable: boolean;
}

/** Where a tool comes from, for labels (annotations are display-only, never trusted). */
export interface ToolSourceLabel {
  /** Built-in, an OpenAPI import, an MCP server, or a workflow. */
  kind: "built-in" | "openapi" | "mcp" | "workflow";
  /** Shown beside the tool. */
  label: string;
  /** Display-only hints (MCP annotations, OpenAPI method/path). */
  annotations?: Record<string, unknown>;
}

/** A tool as the tool picker and the settings list it. */
export interface WorkspaceToolSummary {
  /** Name the model calls (prefix included). */
  name: string;
  /** The source's own name for it (no prefix): what read-only settings refer to. */
  baseName: string;
  /** Description. */
  description: string;
  /** Trusted read-only flag (ours, never the server's annotation). */
  readOnly: boolean;
  /** Source kind and label, plus display-only annotations. */
  source: ToolSourceLabel;
}

/** A tool source's health: `ready`; `unavailable` (MCP server down); `invalid` (stored spec unusable). */
export type ToolSourceStatus = "ready" | "unavailable" | "invalid";

/** A tool source with its tools and health, as the settings page shows it. */
export interface ToolSourceReport {
  /** The source (secrets reduced to flags). */
  source: ToolSourceView;
  /** Its health. */
  status: ToolSourceStatus;
  /** Why it is not ready. */
  error?: { code: string; message: string };
  /** Its tools. */
  tools: WorkspaceToolSummary[];
}

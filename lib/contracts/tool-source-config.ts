import { z } from "zod";

/**
 * Shapes of workspace tool sources (OpenAPI imports and MCP servers): what the settings API
 * accepts, what is stored in `ToolSource.config` (never a secret), and what the browser sees.
 * Isomorphic on purpose: the route schemas and the settings forms share these definitions.
 */

/** Tool names as OpenAI-compatible APIs accept them (the registry enforces the same rule). */
const toolNameSchema = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "Tool names use 1-64 letters, digits, _ or -");

/** Display name of a source, unique per workspace; also the label the tool picker shows. */
export const toolSourceNameSchema = z
  .string()
  .trim()
  .min(1, "Give the tool source a name")
  .max(80, "Use at most 80 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u, "Use letters, digits, spaces, _ . or -");

/** Prepended to every tool name of the source, to keep names unique across sources. */
export const toolNamePrefixSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{0,24}$/, "Use at most 24 letters, digits, _ or -")
  .optional();

/** How an imported API authenticates; the secret itself travels separately and is stored encrypted. */
export const openApiAuthSettingSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("none") }),
  z.object({
    type: z.literal("apiKey"),
    in: z.enum(["header", "query"]),
    name: z.string().trim().min(1, "Name the header or query parameter").max(200),
  }),
  z.object({ type: z.literal("bearer") }),
]);

/** How an imported API authenticates (without the secret). */
export type OpenApiAuthSetting = z.infer<typeof openApiAuthSettingSchema>;

/** A secret-valued entry (MCP env variable or header). `value` absent means "keep the stored value". */
export const secretEntryInputSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(200),
  value: z.string().max(10_000).optional(),
});

/** A secret-valued entry as submitted. */
export type SecretEntryInput = z.infer<typeof secretEntryInputSchema>;

const httpUrlSchema = z.url({ protocol: /^https?$/, error: "Enter an absolute http(s) URL" });

/** Body for creating or replacing an OpenAPI tool source. */
export const openApiSourceInputSchema = z.object({
  kind: z.literal("openapi"),
  name: toolSourceNameSchema,
  /** The document as JSON or YAML text. */
  spec: z.string().min(1, "Paste an OpenAPI document").max(5_000_000, "The document is larger than 5 MB"),
  serverUrl: httpUrlSchema.optional(),
  auth: openApiAuthSettingSchema.default({ type: "none" }),
  /** API key or bearer token; absent keeps the stored one. */
  secret: z.string().max(10_000).optional(),
  readOnlyTools: z.array(toolNameSchema).default([]),
  toolNamePrefix: toolNamePrefixSchema,
});

/** How to reach an MCP server, as submitted (secret values optional on edit). */
export const mcpConnectionInputSchema = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("stdio"),
    command: z.string().trim().min(1, "Enter the command to start the server").max(1000),
    args: z.array(z.string().max(2000)).max(100).default([]),
    env: z.array(secretEntryInputSchema).max(100).default([]),
  }),
  z.object({
    transport: z.literal("http"),
    url: httpUrlSchema,
    headers: z.array(secretEntryInputSchema).max(100).default([]),
  }),
]);

/** How to reach an MCP server, as submitted. */
export type McpConnectionInput = z.infer<typeof mcpConnectionInputSchema>;

/** Body for creating or replacing an MCP tool source. */
export const mcpSourceInputSchema = z.object({
  kind: z.literal("mcp"),
  name: toolSourceNameSchema,
  connection: mcpConnectionInputSchema,
  /** Tools we trust as read-only; the server's own annotations are never trusted for this. */
  readOnlyTools: z.array(toolNameSchema).default([]),
  toolNamePrefix: toolNamePrefixSchema,
});

/** Body for creating or replacing a tool source. */
export const toolSourceInputSchema = z.discriminatedUnion("kind", [openApiSourceInputSchema, mcpSourceInputSchema]);

/** A tool source as submitted. */
export type ToolSourceInput = z.infer<typeof toolSourceInputSchema>;

/** A tool as an MCP server last listed it (kept so an unreachable server's tools still show up). */
export const mcpToolSnapshotSchema = z.object({
  name: z.string(),
  description: z.string().default(""),
  inputSchema: z.record(z.string(), z.unknown()).default({ type: "object" }),
  annotations: z.record(z.string(), z.unknown()).optional(),
});

/** A tool as an MCP server last listed it. */
export type McpToolSnapshot = z.infer<typeof mcpToolSnapshotSchema>;

/** `ToolSource.config` of an OpenAPI source. No secrets. */
export const storedOpenApiConfigSchema = z.object({
  spec: z.string(),
  serverUrl: z.string().optional(),
  auth: openApiAuthSettingSchema,
  readOnlyTools: z.array(z.string()).default([]),
  toolNamePrefix: z.string().optional(),
});

/** `ToolSource.config` of an OpenAPI source. */
export type StoredOpenApiConfig = z.infer<typeof storedOpenApiConfigSchema>;

/** `ToolSource.config` of an MCP source: names of env variables and headers only, values are encrypted elsewhere. */
export const storedMcpConfigSchema = z.object({
  connection: z.discriminatedUnion("transport", [
    z.object({
      transport: z.literal("stdio"),
      command: z.string(),
      args: z.array(z.string()).default([]),
      envNames: z.array(z.string()).default([]),
    }),
    z.object({ transport: z.literal("http"), url: z.string(), headerNames: z.array(z.string()).default([]) }),
  ]),
  readOnlyTools: z.array(z.string()).default([]),
  toolNamePrefix: z.string().optional(),
  toolsSnapshot: z.array(mcpToolSnapshotSchema).default([]),
});

/** `ToolSource.config` of an MCP source. */
export type StoredMcpConfig = z.infer<typeof storedMcpConfigSchema>;

/** Secrets of a source, stored as one encrypted JSON document in its Credential row. */
export const toolSourceSecretsSchema = z.object({
  token: z.string().optional(),
  env: z.record(z.string(), z.string()).default({}),
  headers: z.record(z.string(), z.string()).default({}),
});

/** Secrets of a source (decrypted; server-side only). */
export type ToolSourceSecrets = z.infer<typeof toolSourceSecretsSchema>;

/** Fields every view of a source has. */
interface ToolSourceViewBase {
  /** Row id. */
  id: string;
  /** Unique name in the workspace; the tool picker's source label. */
  name: string;
  /** ISO time. */
  createdAt: string;
  /** ISO time. */
  updatedAt: string;
}

/** A tool source as the browser sees it: every secret replaced by a "has a value" flag. */
export type ToolSourceView =
  | (ToolSourceViewBase & {
      kind: "openapi";
      config: StoredOpenApiConfig & { hasSecret: boolean };
    })
  | (ToolSourceViewBase & {
      kind: "mcp";
      config: {
        connection:
          | { transport: "stdio"; command: string; args: string[]; env: { name: string; hasValue: boolean }[] }
          | { transport: "http"; url: string; headers: { name: string; hasValue: boolean }[] };
        readOnlyTools: string[];
        toolNamePrefix?: string;
        toolsSnapshot: McpToolSnapshot[];
      };
    });

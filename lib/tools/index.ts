/**
 * Public surface of the tools layer (server-only: it spawns processes and opens sockets).
 * Deep imports of the individual modules are equally supported; this barrel is for convenience.
 */
export {
  BUILT_IN_TOOL_NAMES,
  type BuiltInToolOptions,
  createBuiltInToolRegistry,
  createBuiltInTools,
} from "./built-ins/index";
export { createWorkflowTool, type WorkflowToolOptions } from "./built-ins/workflow-as-tool";
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  type DefineToolOptions,
  defineTool,
  type ToolContext,
  type ToolDefinition,
  type ToolError,
  type ToolOutput,
  type ToolProvenance,
  type ToolRegistry,
  type ToolResult,
  toolOutput,
} from "./define-tool";
export { DEFAULT_DEMO_STUB_PORT, type DemoApiStub, startDemoApiStub } from "./demo-stub/server";
export { InvalidArgumentsError } from "./errors/invalid-arguments-error";
export { InvalidToolDefinitionError } from "./errors/invalid-tool-definition-error";
export { SsrfBlockedError } from "./errors/ssrf-blocked-error";
export { ToolCancelledError } from "./errors/tool-cancelled-error";
export { ToolExecutionError } from "./errors/tool-execution-error";
export { ToolNameCollisionError } from "./errors/tool-name-collision-error";
export { ToolTimeoutError } from "./errors/tool-timeout-error";
export { UpstreamError } from "./errors/upstream-error";
export { HTTP_ALLOWLIST_ENV, parseAllowlist } from "./http/allowlist";
export { type SafeFetchOptions, type SafeFetchResponse, safeFetch } from "./http/safe-fetch";
export { type AddressLookup, blockedAddressReason, parseIpLiteral, vetDestination } from "./http/ssrf-guard";
export type { JsonSchema } from "./json-schema-validator";
export { connectMcpServer, type McpServerOptions, type McpToolSource } from "./mcp/mcp-tool-source";
export type { McpTransportConfig } from "./mcp/mcp-transport";
export { McpUnavailableError } from "./mcp/mcp-unavailable-error";
export { createOpenApiTools, type OpenApiAuth, type OpenApiToolOptions } from "./openapi/create-openapi-tools";
export { OpenApiSpecError } from "./openapi/openapi-spec-error";
export {
  composeToolRegistries,
  createToolRegistry,
  listToolSummaries,
  selectTools,
  type ToolSummary,
} from "./registry";
export { runSandboxedCode, type SandboxRunRequest, type SandboxRunResult } from "./sandbox/run-sandboxed-code";
export { SandboxError } from "./sandbox/sandbox-error";

import "server-only";
import { defineTool, type ToolDefinition, toolOutput } from "../define-tool";
import { InvalidToolDefinitionError } from "../errors/invalid-tool-definition-error";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { UpstreamError } from "../errors/upstream-error";
import type { HttpToolOptions } from "../http/http-tool-options";
import { responseText, safeFetch } from "../http/safe-fetch";
import { buildOperations, type OperationPlan } from "./build-operations";
import { isJsonObject, type JsonObject, loadOpenApiDocument, type OpenApiDocument } from "./load-document";
import { OpenApiSpecError } from "./openapi-spec-error";

/** How requests authenticate. The secret itself comes from `ToolContext.credentials[credential]`. */
export type OpenApiAuth =
  | { type: "none" }
  | { type: "apiKey"; in: "header" | "query"; name: string; credential: string }
  | { type: "bearer"; credential: string };

/** Options for {@link createOpenApiTools}. */
export interface OpenApiToolOptions extends HttpToolOptions {
  /** The document as JSON/YAML text or a parsed object. */
  document: string | JsonObject;
  /** Shown in the picker, e.g. "Petstore". */
  label: string;
  /** Base URL; overrides the document's first server. Required when the document has none. */
  serverUrl?: string;
  /** Authentication; inferred from the document's first apiKey/bearer security scheme when unset. */
  auth?: OpenApiAuth;
  /** Prepended to every tool name (`petstore_` + `listPets`) to avoid collisions. */
  toolNamePrefix?: string;
  /**
   * Which operations are read-only. Default: none (side effects assumed, whatever the method).
   * `"safe-methods"` marks GET/HEAD/OPTIONS; a list names tool names (without prefix).
   */
  readOnly?: "safe-methods" | readonly string[];
  /** Per-call timeout, 30 s by default. */
  timeoutMs?: number;
  /** Response bytes kept, 1 MiB by default. */
  maxResponseBytes?: number;
}

function substituteServerVariables(server: JsonObject): string {
  let url = String(server.url);
  if (isJsonObject(server.variables)) {
    for (const [name, variable] of Object.entries(server.variables)) {
      if (isJsonObject(variable) && variable.default !== undefined)
        url = url.replaceAll(`{${name}}`, String(variable.default));
    }
  }
  return url;
}

function resolveServerUrl(document: OpenApiDocument, override: string | undefined): string {
  const candidate =
    override ??
    (Array.isArray(document.servers) && isJsonObject(document.servers[0])
      ? substituteServerVariables(document.servers[0])
      : undefined);
  if (!candidate) throw new OpenApiSpecError("servers", "no server URL in the document; set a server URL override");
  try {
    const url = new URL(candidate);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
    return url.href.replace(/\/+$/, "");
  } catch {
    throw new OpenApiSpecError(
      override ? "serverUrl" : "servers[0].url",
      `"${candidate}" is not an absolute http(s) URL; set a server URL override`,
    );
  }
}

function inferAuth(document: OpenApiDocument): OpenApiAuth {
  const components = isJsonObject(document.components) ? document.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isJsonObject(scheme)) continue;
    if (
      scheme.type === "apiKey" &&
      (scheme.in === "header" || scheme.in === "query") &&
      typeof scheme.name === "string"
    ) {
      return { type: "apiKey", in: scheme.in, name: scheme.name, credential: name };
    }
    if (scheme.type === "http" && typeof scheme.scheme === "string" && scheme.scheme.toLowerCase() === "bearer") {
      return { type: "bearer", credential: name };
    }
  }
  return { type: "none" };
}

function serializeValue(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

function redact(url: URL, auth: OpenApiAuth): string {
  if (auth.type !== "apiKey" || auth.in !== "query" || !url.searchParams.has(auth.name)) return url.href;
  const copy = new URL(url.href);
  copy.searchParams.set(auth.name, "REDACTED");
  return copy.href;
}

function buildRequest(
  plan: OperationPlan,
  serverUrl: string,
  args: Record<string, unknown>,
  auth: OpenApiAuth,
  credentials: Record<string, string>,
) {
  let path = plan.path;
  const query: Array<[string, string]> = [];
  const headers: Record<string, string> = { accept: "application/json" };
  for (const binding of plan.bindings) {
    const value = args[binding.property];
    if (value === undefined || value === null) continue;
    if (binding.in === "path") path = path.replaceAll(`{${binding.name}}`, encodeURIComponent(serializeValue(value)));
    else if (binding.in === "query") {
      // Arrays use the default form/explode style: ?tag=a&tag=b
      for (const item of Array.isArray(value) ? value : [value]) query.push([binding.name, serializeValue(item)]);
    } else headers[binding.name.toLowerCase()] = serializeValue(value);
  }
  const url = new URL(`${serverUrl}${path}`);
  for (const [name, value] of query) url.searchParams.append(name, value);
  if (auth.type !== "none") {
    const secret = credentials[auth.credential];
    if (!secret) {
      throw new ToolExecutionError(
        "missing_credential",
        `Credential "${auth.credential}" is not configured for this API`,
      );
    }
    if (auth.type === "bearer") headers.authorization = `Bearer ${secret}`;
    else if (auth.in === "header") headers[auth.name.toLowerCase()] = secret;
    else url.searchParams.set(auth.name, secret);
  }
  let body: string | undefined;
  if (plan.hasBody && args.body !== undefined) {
    body = JSON.stringify(args.body);
    headers["content-type"] = "application/json";
  }
  return { url, headers, body };
}

/**
 * Turns an OpenAPI 3.0/3.1 document into one tool per operation. Requests go through the SSRF
 * guard, so a workspace import pointing at an internal host fails unless the host is allowlisted.
 * @throws OpenApiSpecError (with the location) for an invalid document or server URL.
 */
export function createOpenApiTools(options: OpenApiToolOptions): ToolDefinition[] {
  const document = loadOpenApiDocument(options.document);
  const serverUrl = resolveServerUrl(document, options.serverUrl);
  const auth = options.auth ?? inferAuth(document);
  const plans = buildOperations(document);
  const prefix = options.toolNamePrefix ?? "";
  return plans.map((plan) => {
    const readOnly =
      options.readOnly === "safe-methods"
        ? ["GET", "HEAD", "OPTIONS"].includes(plan.method)
        : (options.readOnly ?? []).includes(plan.toolName);
    try {
      return defineTool({
        name: `${prefix}${plan.toolName}`.slice(0, 64),
        description: plan.description,
        parameters: plan.parameters,
        readOnly,
        timeoutMs: options.timeoutMs ?? 30_000,
        source: { kind: "openapi", label: options.label, annotations: { method: plan.method, path: plan.path } },
        execute: async (args, context) => {
          const request = buildRequest(plan, serverUrl, args, auth, context.credentials);
          const response = await safeFetch(request.url, {
            method: plan.method,
            headers: request.headers,
            body: request.body,
            signal: context.signal,
            timeoutMs: options.timeoutMs ?? 30_000,
            maxResponseBytes: options.maxResponseBytes,
            allowlist: options.allowlist,
            lookup: options.lookup,
          });
          const text = responseText(response);
          if (response.status < 200 || response.status >= 300) {
            throw new UpstreamError(`${plan.method} ${plan.path} answered ${response.status}: ${text.slice(0, 500)}`, {
              status: response.status,
            });
          }
          let body: unknown = text;
          if (/json/i.test(response.headers["content-type"] ?? "") && !response.truncated) {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          return toolOutput(
            { status: response.status, body },
            {
              source: `${plan.method} ${redact(request.url, auth)}`,
              truncated: response.truncated,
              size: response.size,
            },
          );
        },
      });
    } catch (error) {
      if (error instanceof InvalidToolDefinitionError) throw new OpenApiSpecError(plan.location, error.message);
      throw error;
    }
  });
}

import { z } from "zod";
import { keyValueSchema, templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, MAX_TIMEOUT_MS, policyShape } from "./policy";

/** HTTP methods the node can send. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** Request body; `content` is a template (form content is `key=value` lines). */
export const httpBodySchema = z.object({
  type: z.enum(["none", "json", "text", "form"]).default("none"),
  content: z.string().default(""),
});

/** Config of the http node. */
export const httpConfigSchema = z.object({
  ...policyShape,
  method: z.enum(HTTP_METHODS).default("GET"),
  url: z.string().default(""),
  headers: z.array(keyValueSchema).default(() => []),
  query: z.array(keyValueSchema).default(() => []),
  body: httpBodySchema.default(() => ({ type: "none" as const, content: "" })),
  /**
   * Name of a stored HTTP credential (Settings → Credentials) applied to the request; empty for
   * none. The secret is added at run time and never stored in the workflow or its run records.
   */
  credential: z.string().default(""),
  /** Overrides the policy timeout with a default, because a hanging request should never park a run. */
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).default(30_000),
});

/** Parsed http config. */
export type HttpConfig = z.output<typeof httpConfigSchema>;

/** Sends one HTTP request (through the server's SSRF guard). */
export const httpNode = defineNode<HttpConfig>({
  type: "http",
  label: "HTTP request",
  description: "Sends an HTTP request and returns the response.",
  category: "tools",
  configSchema: httpConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    method: "GET",
    url: "",
    headers: [],
    query: [],
    body: { type: "none", content: "" },
    credential: "",
    timeoutMs: 30_000,
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [
    { name: "status", type: "number", description: "HTTP status code" },
    { name: "headers", type: "object", description: "Response headers" },
    { name: "body", type: "string", description: "Response body as text" },
    { name: "json", type: "any", description: "Response body parsed as JSON, when it is JSON" },
  ],
  summarize: (config) => `${config.method} ${truncate(config.url, 40) || "no URL"}`,
  variableUsages: (config) => [
    templateUsage(["url"], config.url),
    ...config.headers.flatMap((header, index) => [
      templateUsage(["headers", index, "key"], header.key),
      templateUsage(["headers", index, "value"], header.value),
    ]),
    ...config.query.flatMap((pair, index) => [
      templateUsage(["query", index, "key"], pair.key),
      templateUsage(["query", index, "value"], pair.value),
    ]),
    config.body.type === "none" ? undefined : templateUsage(["body", "content"], config.body.content),
  ],
  findMissingInputs: (config) => (config.url.trim() === "" ? [{ path: ["url"], message: "Enter the URL" }] : []),
});

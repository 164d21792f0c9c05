import { z } from "zod";
import { HTTP_METHODS } from "../../../workflow/nodes/http";
import { SECRET_KEY } from "../builtin-tools";
import type { MapContext, NodeMapper } from "../context";
import { readData, toIdentifier, trellisNode } from "./shared";

/** HttpRequestNodeData (nodes/http_request/entities.py); `body.data` is a string before DSL 0.1.2, BodyData[] after. */
const bodyDataSchema = z.looseObject({
  key: z.string().default(""),
  type: z.string().default("text"),
  value: z.string().default(""),
  file: z.array(z.string()).nullish(),
});

const httpDataSchema = z.looseObject({
  method: z
    .string()
    .transform((method) => method.toUpperCase())
    .pipe(z.enum(HTTP_METHODS)),
  url: z.string().default(""),
  authorization: z
    .looseObject({
      type: z.string().default("no-auth"),
      config: z
        .looseObject({ type: z.string().nullish(), api_key: z.string().nullish(), header: z.string().nullish() })
        .nullish(),
    })
    .nullish(),
  headers: z.string().default(""),
  params: z.string().default(""),
  body: z
    .looseObject({
      type: z.string().default("none"),
      data: z.union([z.string(), z.array(bodyDataSchema)]).nullish(),
    })
    .nullish(),
  timeout: z.record(z.string(), z.unknown()).nullish(),
  ssl_verify: z.boolean().nullish(),
});

/** `key:value` lines, Dify's header and query format. */
function pairs(
  text: string,
  context: MapContext,
  what: "header" | "query",
): { pairs: { key: string; value: string }[]; removedSecret: boolean } {
  const result: { key: string; value: string }[] = [];
  let removedSecret = false;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    const key = (colon === -1 ? line : line.slice(0, colon)).trim();
    const value = colon === -1 ? "" : line.slice(colon + 1).trim();
    if (what === "header" && SECRET_KEY.test(key) && value !== "" && !value.includes("{{#")) {
      context.secret({
        kind: "http-credential",
        name: credentialName(context),
        sourcePath: context.dataPath("headers"),
        hadValue: true,
        message: `The header "${key}" held a secret; it was removed. Create the HTTP credential "${credentialName(context)}" (header ${key}) in Settings → Credentials.`,
      });
      context.change(
        `Header "${key}" (a secret) was removed; the node uses the credential "${credentialName(context)}"`,
      );
      removedSecret = true;
      continue;
    }
    result.push({ key: context.template(key), value: context.template(value) });
  }
  return { pairs: result, removedSecret };
}

function credentialName(context: MapContext): string {
  const title = typeof context.current.data.title === "string" ? context.current.data.title : context.current.id;
  return `dify_${toIdentifier(title.toLowerCase(), "http")}`.slice(0, 60);
}

const BODY_TYPES: Record<string, "none" | "json" | "text" | "form"> = {
  none: "none",
  json: "json",
  "raw-text": "text",
  "x-www-form-urlencoded": "form",
  "form-data": "form",
};

/** http-request: method, URL, headers, query, body; an API key becomes an empty credential slot. */
export const httpRequestMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(httpDataSchema, node, context);
    const { pairs: headers, removedSecret } = pairs(data.headers, context, "header");
    const { pairs: query } = pairs(data.params, context, "query");
    let credential = removedSecret ? credentialName(context) : "";
    const authorization = data.authorization;
    if (authorization && authorization.type !== "no-auth") {
      credential = credentialName(context);
      const config = authorization.config;
      const kind = config?.type ?? "bearer";
      const detail = kind === "custom" ? ` (header ${config?.header ?? "?"})` : ` (${kind})`;
      context.secret({
        kind: "http-credential",
        name: credential,
        sourcePath: context.dataPath("authorization", "config", "api_key"),
        hadValue: typeof config?.api_key === "string" && config.api_key !== "",
        message: `Create the HTTP credential "${credential}"${detail} in Settings → Credentials; the file's key was not imported.`,
      });
      context.change(`The API key became the credential slot "${credential}"`);
    }
    const bodyType = data.body?.type ?? "none";
    const type = BODY_TYPES[bodyType];
    let content = "";
    const bodyData = data.body?.data;
    if (!type) context.change(`Body type "${bodyType}" is not supported; the request is sent without a body`);
    else if (typeof bodyData === "string") content = context.template(bodyData);
    else if (bodyData && type === "form") {
      if (bodyData.some((entry) => entry.type === "file")) context.change("File fields of the form were left out");
      if (bodyType === "form-data") context.change("multipart/form-data became a URL-encoded form");
      content = bodyData
        .filter((entry) => entry.type !== "file")
        .map((entry) => `${context.template(entry.key)}=${context.template(entry.value)}`)
        .join("\n");
    } else if (bodyData && bodyData.length > 0) content = context.template(bodyData[0]!.value);
    if (data.ssl_verify === false) context.change("TLS verification cannot be turned off here");
    if (data.timeout && Object.values(data.timeout).some((value) => typeof value === "number" && value > 0)) {
      context.change("Timeouts use the node's single timeout (30 s by default)");
    }
    return {
      nodes: [
        trellisNode(node, "http", {
          method: data.method,
          url: context.template(data.url),
          headers,
          query,
          body: { type: type ?? "none", content: type ? content : "" },
          credential,
          timeoutMs: 30_000,
        }),
      ],
    };
  },
  outputPath: (path) => {
    if (path[0] === "status_code") return ["status", ...path.slice(1)];
    return path;
  },
};

import "server-only";
import { isCredentialDestinationAllowed } from "../../contracts/credential-hosts";
import { describeHttpAuth, type HttpAuth, httpAuthCredentials } from "../../tools/http/http-auth";
import type { HttpConfig } from "../../workflow/nodes/http";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";
import { callTool, requireTool, truncationPartial } from "./call-tool";

/** The built-in tool the http node delegates to (SSRF guard, size caps and timeouts live there). */
export const HTTP_TOOL_NAME = "http_request";

/**
 * Renders the request and sends it through the built-in `http_request` tool, so the node and
 * agents share one guarded HTTP path.
 */
export const httpExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as HttpConfig;
  const tool = requireTool(context, HTTP_TOOL_NAME);
  const headers: Record<string, string> = {};
  for (const header of config.headers ?? []) headers[context.render(header.key)] = context.render(header.value);
  const query: Record<string, string> = {};
  for (const pair of config.query ?? []) query[context.render(pair.key)] = context.render(pair.value);
  const args: Record<string, unknown> = {
    method: config.method ?? "GET",
    url: context.render(config.url ?? ""),
    headers,
    query,
    timeout_ms: config.timeoutMs,
  };
  const body = renderBody(config.body, context.render, headers);
  if (body !== undefined) args.body = body;
  const auth = await resolveCredential(context, config.credential ?? "");
  if (auth) checkDestination(auth, args.url as string);
  const { content, result, latencyMs } = await callTool(context, tool, args, auth ? httpAuthCredentials(auth) : {});
  // Past the node value limit the tool returns its cut JSON text: keep that (marker included) as the body.
  const response = (typeof content === "string" ? { body: content } : (content ?? {})) as Record<string, unknown>;
  const responseBody = response.body;
  const partial = truncationPartial(result, "response body");
  return {
    outputs: {
      status: response.status,
      headers: response.headers ?? {},
      body: typeof responseBody === "string" ? responseBody : JSON.stringify(responseBody ?? ""),
      json: typeof responseBody === "string" ? undefined : responseBody,
    },
    inputs: args,
    processData: {
      request: args,
      ...(auth ? { auth: describeHttpAuth(auth) } : {}),
      latencyMs,
      size: result.provenance.size,
      truncated: result.provenance.truncated,
    },
    ...(partial ? { partial } : {}),
  };
};

/**
 * A credential sent somewhere its allowed hosts do not list. Code `credential_host_not_allowed`;
 * not retryable. Nothing is sent: the check runs before the request.
 */
export class CredentialHostNotAllowedError extends NodeExecutionError {
  constructor(credential: string, destination: string, allowedHosts: readonly string[]) {
    super(
      "credential_host_not_allowed",
      `Credential "${credential}" may not be sent to ${destination}: it is allowed for ${allowedHosts.join(", ") || "no host"}.`,
      { hint: "Change the URL, or ask an admin to add the host under Settings → Credentials." },
    );
  }
}

/** Refuses before sending when the credential's allowed hosts do not cover the URL. */
function checkDestination(auth: HttpAuth, rawUrl: string): void {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return; // Not a URL: the tool refuses it without sending anything.
  }
  if (!isCredentialDestinationAllowed(url, auth.allowedHosts)) {
    throw new CredentialHostNotAllowedError(auth.credential, `${url.origin}${url.pathname}`, auth.allowedHosts ?? []);
  }
}

/** The stored credential the node names, or a non-retryable `credential_not_found` failure. */
async function resolveCredential(context: Parameters<NodeExecutor>[0], name: string) {
  if (name.trim() === "") return undefined;
  const auth = await context.services.httpAuth?.(name.trim());
  if (!auth) {
    throw new NodeExecutionError("credential_not_found", `No HTTP credential named "${name}" in this workspace.`, {
      hint: "Add it under Settings → Credentials, or choose another in the node.",
    });
  }
  return auth;
}

function renderBody(
  body: HttpConfig["body"] | undefined,
  render: (template: string) => string,
  headers: Record<string, string>,
): unknown {
  if (!body || body.type === "none") return undefined;
  const text = render(body.content);
  if (body.type === "text") return text;
  if (body.type === "json") {
    try {
      return JSON.parse(text);
    } catch {
      throw new NodeExecutionError("invalid_body", "The JSON body did not render to valid JSON.", {
        hint: "Quote string references inside the JSON body.",
      });
    }
  }
  // form: `key=value` lines, sent url-encoded.
  const form = new URLSearchParams();
  for (const line of text.split("\n")) {
    const separator = line.indexOf("=");
    if (line.trim() === "") continue;
    if (separator < 0) form.append(line.trim(), "");
    else form.append(line.slice(0, separator).trim(), line.slice(separator + 1).trim());
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  return form.toString();
}

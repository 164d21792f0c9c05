import { z } from "zod";
import { allowedHostsSchema } from "./credential-hosts";

/**
 * HTTP credentials as the settings API accepts them and the browser sees them (isomorphic: the
 * route, the service and the settings form share it). The secret is write-only.
 */

/** How a credential is sent: bearer token, header, query parameter or HTTP Basic. */
export const HTTP_AUTH_TYPES = ["bearer", "header", "query", "basic"] as const;

/** One of {@link HTTP_AUTH_TYPES}. */
export type HttpAuthType = (typeof HTTP_AUTH_TYPES)[number];

/** Header names a credential may not set: they describe the connection, not who is calling. */
const RESERVED_HEADERS = new Set(["host", "content-length", "content-type", "connection", "transfer-encoding"]);

/** An HTTP credential as a form submits it; the secret is write-only. */
export const httpCredentialInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Enter a name")
      .max(80)
      .regex(/^[\w.-]+$/, "Use letters, digits, _, . and - only"),
    type: z.enum(HTTP_AUTH_TYPES),
    /** Header or query parameter name (header and query types). */
    parameter: z.string().trim().max(100).default(""),
    /** User name (basic). */
    username: z.string().max(200).default(""),
    secret: z.string().min(1, "Enter the secret").max(10_000),
    /** Hosts or URL prefixes the credential may be sent to (required for new credentials). */
    allowedHosts: allowedHostsSchema,
  })
  .superRefine((input, context) => {
    if ((input.type === "header" || input.type === "query") && !/^[\w.-]+$/.test(input.parameter)) {
      context.addIssue({
        code: "custom",
        path: ["parameter"],
        message: `Enter the ${input.type === "header" ? "header" : "query parameter"} name (letters, digits, _, . and -)`,
      });
    }
    if (input.type === "header" && RESERVED_HEADERS.has(input.parameter.toLowerCase())) {
      context.addIssue({
        code: "custom",
        path: ["parameter"],
        message: `"${input.parameter}" cannot carry a credential`,
      });
    }
    if (input.type === "basic" && input.username.trim() === "") {
      context.addIssue({ code: "custom", path: ["username"], message: "Enter the user name" });
    }
  });

/** A submitted HTTP credential. */
export type HttpCredentialInput = z.input<typeof httpCredentialInputSchema>;

/** What the settings page and the node's picker see: never the secret. */
export interface HttpCredentialView {
  /** Name the http node refers to. */
  name: string;
  /** How it authenticates. */
  type: HttpAuthType;
  /** Header or query parameter name, or the basic user name. */
  detail: string;
  /** Hosts or URL prefixes it may be sent to; null: any (stored before the setting existed). */
  allowedHosts: string[] | null;
  /** Last change. */
  updatedAt: string;
}

/** A change to a stored HTTP credential: its allowed hosts, and optionally a new secret. */
export const httpCredentialUpdateSchema = z.object({
  allowedHosts: allowedHostsSchema,
  /** A new secret; absent keeps the stored one. */
  secret: z.string().min(1, "Enter the secret").max(10_000).optional(),
});

/** A submitted credential change. */
export type HttpCredentialUpdate = z.input<typeof httpCredentialUpdateSchema>;

import { httpCredentialInputSchema } from "@/lib/db/http-credential-repository";
import { json, route } from "@/lib/http/route";
import { createHttpCredential, listHttpCredentials } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** The workspace's HTTP credentials (names, types, header/parameter names; never secrets), for the http node's picker too. */
export const GET = route({ auth: "session" }, async ({ principal }) => ({
  credentials: await listHttpCredentials(principal),
}));

/** Adds an HTTP credential (owners and admins); the secret is encrypted at rest and never returned. */
export const POST = route({ auth: "session", body: httpCredentialInputSchema }, async ({ principal, body }) =>
  json({ credential: await createHttpCredential(principal, body) }, 201),
);

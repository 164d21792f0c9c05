import { json, route } from "@/lib/http/route";
import { listToolSources, putToolSource } from "@/lib/services/workspace-settings";
import { toolSourceBodySchema } from "./schema";

export const dynamic = "force-dynamic";

/** The workspace's tool sources with their tools and health (secrets reduced to flags). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ sources: await listToolSources(principal) }));

/** Adds an OpenAPI import or MCP server; an invalid document answers 400 naming the location. */
export const POST = route({ auth: "session", body: toolSourceBodySchema }, async ({ principal, body }) =>
  json({ source: await putToolSource(principal, body) }, 201),
);

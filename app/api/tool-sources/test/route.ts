import { route } from "@/lib/http/route";
import { testToolSource } from "@/lib/services/workspace-settings";
import { testConnectionBodySchema } from "../schema";

export const dynamic = "force-dynamic";

/**
 * "Test connection": connects to the MCP server as submitted, lists its tools and closes. Always
 * answers within about 20 s, with `{ ok: true, tools }` or `{ ok: false, error }` (status 200:
 * the test ran; the server's failure is its result).
 */
export const POST = route({ auth: "session", body: testConnectionBodySchema }, async ({ principal, body }) =>
  testToolSource(principal, body),
);

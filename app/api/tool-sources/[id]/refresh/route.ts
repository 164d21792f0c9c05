import { route } from "@/lib/http/route";
import { refreshToolSource } from "@/lib/services/workspace-settings";
import { toolSourcePathSchema } from "../../schema";

export const dynamic = "force-dynamic";

/** Lists an MCP server's tools again (reconnecting when needed) and answers with them and the server's health. */
export const POST = route({ auth: "session", params: toolSourcePathSchema }, async ({ principal, params }) =>
  refreshToolSource(principal, params.id),
);

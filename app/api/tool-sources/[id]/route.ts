import { noContent, route } from "@/lib/http/route";
import {
  deleteToolSource,
  getToolSourceReport,
  putToolSource,
  setReadOnlyTools,
} from "@/lib/services/workspace-settings";
import { readOnlyToolsBodySchema, toolSourceBodySchema, toolSourcePathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** One source with its tools and health. Other workspaces' ids answer 404 like unknown ones. */
export const GET = route({ auth: "session", params: toolSourcePathSchema }, async ({ principal, params }) => ({
  source: await getToolSourceReport(principal, params.id),
}));

/** Replaces a source's settings; write-only secret fields left out keep their stored values. */
export const PUT = route(
  { auth: "session", params: toolSourcePathSchema, body: toolSourceBodySchema },
  async ({ principal, params, body }) => ({ source: await putToolSource(principal, body, params.id) }),
);

/** Sets which tools of the source are trusted as read-only. */
export const PATCH = route(
  { auth: "session", params: toolSourcePathSchema, body: readOnlyToolsBodySchema },
  async ({ principal, params, body }) => ({ source: await setReadOnlyTools(principal, params.id, body.readOnlyTools) }),
);

/** Deletes a source, its secrets and its MCP connection. */
export const DELETE = route({ auth: "session", params: toolSourcePathSchema }, async ({ principal, params }) => {
  await deleteToolSource(principal, params.id);
  return noContent();
});

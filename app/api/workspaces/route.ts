import { json, route } from "@/lib/http/route";
import { createWorkspace, listWorkspaces, workspaceNameSchema } from "@/lib/services/workspaces";

export const dynamic = "force-dynamic";

/** The signed-in user's workspaces with their role; `current` marks the one the session acts in. */
export const GET = route({ auth: "session" }, async ({ principal }) => ({
  workspaces: await listWorkspaces(principal),
}));

/** Creates a workspace owned by the signed-in user. */
export const POST = route({ auth: "session", body: workspaceNameSchema }, async ({ principal, body }) =>
  json({ workspace: await createWorkspace(principal, body) }, 201),
);

import { z } from "zod";
import { route } from "@/lib/http/route";
import { renameWorkspace, workspaceNameSchema } from "@/lib/services/workspaces";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ id: z.string().min(1).max(200) });

/** Renames the current workspace (owners and admins). */
export const PATCH = route(
  { auth: "session", params: pathSchema, body: workspaceNameSchema },
  async ({ principal, params, body }) => ({ workspace: await renameWorkspace(principal, params.id, body) }),
);

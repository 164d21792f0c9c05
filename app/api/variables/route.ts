import { workspaceVariableInputSchema } from "@/lib/contracts/workspace-variable";
import { json, route } from "@/lib/http/route";
import { addWorkspaceVariable, listEnvironmentVariables } from "@/lib/services/workspace-variables";

export const dynamic = "force-dynamic";

/** The workspace's variables and the server's public ones (any member: the editor's variables panel). */
export const GET = route({ auth: "session" }, async ({ principal }) => listEnvironmentVariables(principal));

/** Adds a workspace variable (owners and admins). */
export const POST = route({ auth: "session", body: workspaceVariableInputSchema }, async ({ principal, body }) =>
  json({ variable: await addWorkspaceVariable(principal, body) }, 201),
);

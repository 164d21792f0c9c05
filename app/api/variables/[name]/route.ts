import { z } from "zod";
import { workspaceVariableNameSchema, workspaceVariableUpdateSchema } from "@/lib/contracts/workspace-variable";
import { noContent, route } from "@/lib/http/route";
import { changeWorkspaceVariable, removeWorkspaceVariable } from "@/lib/services/workspace-variables";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ name: workspaceVariableNameSchema });

/** Changes a workspace variable's value (owners and admins). */
export const PUT = route(
  { auth: "session", params: pathSchema, body: workspaceVariableUpdateSchema },
  async ({ principal, params, body }) => ({
    variable: await changeWorkspaceVariable(principal, params.name, body.value),
  }),
);

/** Deletes a workspace variable (owners and admins). */
export const DELETE = route({ auth: "session", params: pathSchema }, async ({ principal, params }) => {
  await removeWorkspaceVariable(principal, params.name);
  return noContent();
});

import { getRequestContext } from "@/lib/db/context";
import { mapError } from "@/lib/http/respond";
import { isDemoMode } from "@/lib/services/demo-mode";
import { listModelOptions } from "@/lib/services/model-catalog";

export const dynamic = "force-dynamic";

/** Models for the model picker, and whether the server runs in demo mode. */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getRequestContext();
    return Response.json({ models: await listModelOptions(workspaceId), demoMode: isDemoMode() });
  } catch (error) {
    return mapError(error);
  }
}

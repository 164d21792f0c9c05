import { getRequestContext } from "@/lib/db/context";
import { mapError } from "@/lib/http/respond";
import { respondWithRuns } from "@/lib/http/run-list-query";

export const dynamic = "force-dynamic";

/** Every run of the workspace, newest first: `?status=&trigger=&workflowId=&before=&limit=`. */
export async function GET(request: Request): Promise<Response> {
  try {
    const { workspaceId } = await getRequestContext();
    return await respondWithRuns(request, workspaceId);
  } catch (error) {
    return mapError(error);
  }
}

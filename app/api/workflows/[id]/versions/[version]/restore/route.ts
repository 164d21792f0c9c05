import { route } from "@/lib/http/route";
import { restoreVersion } from "@/lib/services/workflow-versions";
import { restoreBodySchema, versionPathSchema } from "../../schema";

/** Writes the version's document into the draft; 409 `revision_conflict` when the draft moved on. */
export const POST = route(
  { auth: "session", params: versionPathSchema, body: restoreBodySchema },
  async ({ principal, params, body }) => restoreVersion(principal, params.id, params.version, body.expectedRevision),
);

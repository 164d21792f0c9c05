import { json, route } from "@/lib/http/route";
import { importWorkflow } from "@/lib/services/interop";
import { importWorkflowBodySchema, MAX_IMPORT_BODY_BYTES } from "./schema";

export const dynamic = "force-dynamic";

/**
 * Imports a Dify DSL file or a Trellis export. With `dryRun` it answers the report only;
 * otherwise it creates the workflow and answers `{ id, name, report }` with 201. Editors only.
 */
export const POST = route(
  { auth: "session", body: importWorkflowBodySchema, maxBodyBytes: MAX_IMPORT_BODY_BYTES },
  async ({ principal, body }) => {
    const result = await importWorkflow(principal, body);
    return "id" in result ? json(result, 201) : result;
  },
);

import { z } from "zod";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { listWorkflowVersions, workflowIdForSlug } from "@/lib/services/workflow-versions";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ slug: z.string().min(1).max(200) });

/** The workflow's published versions and the one its endpoint serves (API keys with `manage`). */
export const GET = route({ auth: "api-key", params: pathSchema }, async ({ principal, params }) =>
  listWorkflowVersions(principal, await workflowIdForSlug(principal, params.slug)),
);

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);

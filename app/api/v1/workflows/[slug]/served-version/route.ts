import { z } from "zod";
import { servedVersionBodySchema } from "@/app/api/workflows/[id]/versions/schema";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { setServedVersion, workflowIdForSlug } from "@/lib/services/workflow-versions";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ slug: z.string().min(1).max(200) });

/** Pins the served version (`{version: 2}`) or serves the latest again (`{version: null}`); API keys with `manage`. */
export const PUT = route(
  { auth: "api-key", params: pathSchema, body: servedVersionBodySchema },
  async ({ principal, params, body }) =>
    setServedVersion(principal, await workflowIdForSlug(principal, params.slug), body.version),
);

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["PUT"]);
export const GET = notAllowed;
export const POST = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["PUT"]);

import { z } from "zod";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { json, route } from "@/lib/http/route";
import { runEventStream } from "@/lib/http/sse";
import { publicRunResult, runEventSource, startPublishedRun } from "@/lib/services/runs";
import { publishedRunBodySchema } from "./schema";

export const dynamic = "force-dynamic";

const pathSchema = z.object({ slug: z.string().min(1).max(200) });

/**
 * Runs a published version of a workflow for an API client (`version` in the body, else the
 * pinned one, else the latest). Drafts are never
 * reachable here: publishing is what makes a workflow callable.
 */
export const POST = route(
  { auth: "api-key", params: pathSchema, body: publishedRunBodySchema },
  async ({ request, principal, params, body }) => {
    const { runId, done, version } = await startPublishedRun(principal, params.slug, {
      inputs: body.inputs,
      version: body.version,
    });
    if (body.response_mode === "streaming") return runEventStream(runEventSource(), runId, 0, request.signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      done.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), body.timeout_seconds * 1000);
      }),
    ]);
    clearTimeout(timer);
    const result = await publicRunResult(runId);
    // Still running: the client polls GET /api/v1/runs/:id (or cancels) instead of holding on.
    return json({ ...result, version }, ended ? 200 : 202);
  },
);

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);

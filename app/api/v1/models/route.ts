import { corsPreflight } from "@/lib/http/cors";
import { openAiMethodNotAllowed, openAiRoute } from "@/lib/http/openai-route";
import { listPublishedModels } from "@/lib/services/published-api";

export const dynamic = "force-dynamic";

/** The published workflows the API key may call, as OpenAI's model list (`id` is the slug). */
export const GET = openAiRoute({ auth: "api-key" }, async ({ principal }) => {
  const models = await listPublishedModels(principal);
  return {
    object: "list",
    data: models.map((model) => ({ id: model.id, object: "model", created: model.created, owned_by: "trellis" })),
  };
});

const notAllowed = openAiMethodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);

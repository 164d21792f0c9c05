import { corsPreflight } from "@/lib/http/cors";
import { modelErrorAnswer, openAiMethodNotAllowed, openAiRoute } from "@/lib/http/openai-route";
import { getPublishedModel } from "@/lib/services/published-api";
import { modelPathSchema } from "../../schemas";

export const dynamic = "force-dynamic";

/**
 * One published workflow the API key may call, as OpenAI's model object (the SDKs'
 * `models.retrieve`): `slug`, or `slug@N` for a published version. A workflow the key may not
 * call, or a version that does not exist, is a 404 in OpenAI's shape, as the chat endpoint answers.
 */
export const GET = openAiRoute({ auth: "api-key", params: modelPathSchema }, async ({ principal, params }) => {
  try {
    const model = await getPublishedModel(principal, params.model);
    return { id: model.id, object: "model", created: model.created, owned_by: "trellis" };
  } catch (error) {
    const answer = modelErrorAnswer(error);
    if (answer) return answer;
    throw error;
  }
});

const notAllowed = openAiMethodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);

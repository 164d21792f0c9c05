import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { buildOpenApiDocument } from "../openapi-document";

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The OpenAPI 3.1 document of /api/v1 (public: it describes the API, it grants nothing). */
export const GET = route({ auth: "public" }, async () => {
  document ??= buildOpenApiDocument();
  return document;
});

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);

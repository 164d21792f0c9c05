import "server-only";
import { errorResponse } from "./respond";
import type { RouteHandler } from "./route";

/**
 * The handler a route file exports for the methods it does not serve, so a wrong method answers
 * JSON 405 `method_not_allowed` with an `Allow` header instead of an empty or HTML answer:
 * `const notAllowed = methodNotAllowed(["GET"]); export const POST = notAllowed; …`.
 */
export function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  const allow = allowed.join(", ");
  return async (request) => {
    const response = errorResponse(
      405,
      "method_not_allowed",
      `${request.method} is not allowed on ${new URL(request.url).pathname}; use ${allow}.`,
      { allowed: [...allowed] },
    );
    response.headers.set("allow", allow);
    return response;
  };
}

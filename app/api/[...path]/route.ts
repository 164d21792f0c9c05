import { errorResponse } from "@/lib/http/respond";

/** Unknown `/api/**` paths answer JSON (a code and the path), never the HTML 404 page. */
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(404, "route_not_found", `There is no API at ${request.method} ${pathname}.`);
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;

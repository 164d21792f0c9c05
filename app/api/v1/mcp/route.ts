import { corsPreflight } from "@/lib/http/cors";
import { handleMcpRequest } from "@/lib/http/mcp-server";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/**
 * The MCP server of published workflows (Streamable HTTP, stateless): each published workflow
 * the API key may run is a tool. The key is checked (and rate-limited) by `route()` like every
 * /api/v1 call; the MCP SDK's transport reads the JSON-RPC body itself.
 */
export const POST = route({ auth: "api-key" }, async ({ request, principal }) => handleMcpRequest(request, principal));

/**
 * Stateless: no standalone SSE stream (GET) and no session to end (DELETE). MCP clients take the
 * 405 on GET as "no server-initiated stream" and go on.
 */
const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);

import { route } from "@/lib/http/route";
import { listSessions } from "@/lib/services/sessions";

/** The signed-in user's sessions (device, address, created, last seen; the current one marked). */
export const GET = route({ auth: "session" }, async ({ principal }) => ({ sessions: await listSessions(principal) }));

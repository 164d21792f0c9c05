import { database } from "@/lib/db/prisma-client";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and the e2e web server wait. */
export async function GET(): Promise<Response> {
  try {
    await database().$queryRawUnsafe("SELECT 1");
    return Response.json({ ok: true });
  } catch (error) {
    return Response.json({ ok: false, error: error instanceof Error ? error.message : String(error) }, { status: 503 });
  }
}

import "server-only";
import { pingDatabase } from "../db/prisma-client";

/** What `/api/health` reports: whether the database answers. */
export async function checkHealth(): Promise<{ ok: boolean; error?: string }> {
  try {
    await pingDatabase();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

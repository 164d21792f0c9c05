import "server-only";

/** Connection-level failure codes: the database is not reachable (as opposed to a bad query). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "P1001",
  "P1002",
  "P1017",
  "57P01",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
]);

const UNREACHABLE_MESSAGE =
  /ECONNREFUSED|Can't reach database|Connection terminated|timeout exceeded when trying to connect|connect ETIMEDOUT|Connection closed/i;

/**
 * Whether an error (or any of its causes) says the database could not be reached, so the API can
 * answer 503 `database_unavailable` instead of a 500.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (typeof current !== "object") return false;
    const record = current as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown };
    for (const value of [record.code, record.kind])
      if (typeof value === "string" && UNREACHABLE_CODES.has(value)) return true;
    if (typeof record.message === "string" && UNREACHABLE_MESSAGE.test(record.message)) return true;
    current = record.cause;
  }
  return false;
}

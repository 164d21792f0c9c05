import "server-only";
import { cookies } from "next/headers";
import { setSessionReader } from "../db/context";
import { secretKey } from "../db/secret-box";
import { readSessionToken, SESSION_COOKIE } from "./session-token";

/**
 * Teaches lib/db's request context to read the session cookie. `cookies()` throws outside a
 * request scope (scripts, tests): that reads as "no request", not "not signed in".
 */
export function installSessionReader(): void {
  setSessionReader(async () => {
    let token: string | undefined;
    try {
      token = (await cookies()).get(SESSION_COOKIE)?.value;
    } catch {
      return undefined;
    }
    return readSessionToken(token, secretKey());
  });
}

import "server-only";
import { redirect } from "next/navigation";
import type { UserPrincipal } from "./principal";
import { currentPrincipal } from "./session";

/**
 * The signed-in principal of a page (server component). Without a valid session the page
 * redirects to sign-in (the proxy normally does so first; this closes the gap for a revoked or
 * expired session whose cookie still looks valid).
 */
export async function requirePagePrincipal(): Promise<UserPrincipal> {
  const principal = await currentPrincipal();
  if (!principal) redirect("/login");
  return principal;
}

import type { APIRequestContext } from "@playwright/test";

/**
 * Signs in as the seeded admin through the API; the session cookie lands in the request
 * context, which a page's `page.request` shares with its browser context.
 */
export async function signIn(request: APIRequestContext): Promise<void> {
  const response = await request.post("/api/auth/login", {
    data: {
      email: process.env.TRELLIS_ADMIN_EMAIL ?? "admin@trellis.local",
      password: process.env.TRELLIS_ADMIN_PASSWORD ?? "trellis-admin",
    },
  });
  // Builds without sign-in answer 404 here; anything else must succeed.
  if (!response.ok() && response.status() !== 404) {
    throw new Error(`Sign-in failed with ${response.status()}: ${await response.text()}`);
  }
}

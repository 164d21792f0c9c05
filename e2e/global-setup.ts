import { type FullConfig, request } from "@playwright/test";

/** Where the signed-in admin's cookies are kept for every spec. */
export const ADMIN_STORAGE_STATE = "test-results/.auth/admin.json";

/** Signs in once as the seeded admin (the server is already up: webServer starts first). */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  const context = await request.newContext({ baseURL });
  const response = await context.post("/api/auth/login", {
    data: { email: "admin@trellis.local", password: "trellis-admin" },
  });
  if (!response.ok())
    throw new Error(`Sign-in for the e2e tests failed: ${response.status()} ${await response.text()}`);
  await context.storageState({ path: ADMIN_STORAGE_STATE });
  await context.dispose();
}

import { type APIRequestContext, expect } from "@playwright/test";

/**
 * Setup the e2e specs make through the API as the signed-in owner (the `request` fixture carries
 * the session), so a test spends its browser time on what it checks. Each call asserts its status,
 * so a broken setup fails at the line that made it.
 */

/** Creates an API key (default scope `run`); resolves with its secret, shown once. */
export async function createApiKey(request: APIRequestContext, name: string, scopes = ["run"]): Promise<string> {
  const created = await request.post("/api/api-keys", { data: { name, scopes } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { secret: string }).secret;
}

/** Creates a workspace environment variable (`{{env.NAME}}`). */
export async function createVariable(request: APIRequestContext, name: string, value: string): Promise<void> {
  expect((await request.post("/api/variables", { data: { name, value } })).status()).toBe(201);
}

/**
 * Runs a published workflow through the public API with an API key, without the session
 * cookie (`cookie: ""`), as an outside caller would. Answers the raw response.
 */
export function runWithApiKey(request: APIRequestContext, slug: string, secret: string, body: Record<string, unknown>) {
  return request.post(`/api/v1/workflows/${slug}/run`, {
    headers: { authorization: `Bearer ${secret}`, cookie: "" },
    data: body,
  });
}

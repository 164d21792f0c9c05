import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { sessionCookieFor } from "../services/testing/api-client";
import { jsonDepthExceeds, MAX_JSON_DEPTH, route } from "./route";

const echo = route({ auth: "public", body: z.looseObject({}) }, async ({ body }) => ({ received: body }));
const sessionEcho = route({ auth: "session", body: z.looseObject({}) }, async () => ({ ok: true }));
const sessionDelete = route({ auth: "session" }, async () => ({ ok: true }));
const keyRoute = route({ auth: "api-key", body: z.looseObject({}) }, async () => ({ ok: true }));
const withPath = route({ auth: "public", params: z.object({ id: z.string() }) }, async ({ params }) => params);

function post(headers: Record<string, string>, body = "{}", method = "POST"): Request {
  return new Request("http://localhost:4010/api/thing", { method, headers, body: method === "DELETE" ? null : body });
}

async function errorCode(response: Response): Promise<string | undefined> {
  return ((await response.json()) as { error?: { code: string } }).error?.code;
}

function nested(depth: number): string {
  return `{"a":${"[".repeat(depth - 1)}1${"]".repeat(depth - 1)}}`;
}

describe("route wrapper: request hygiene", () => {
  let test: TestDatabase;
  let cookie: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { ownerId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    });
    cookie = await sessionCookieFor(ownerId);
  });
  afterAll(async () => test?.dispose());

  it("accepts only application/json bodies: text/plain is 415 naming the type", async () => {
    const refused = await echo(post({ "content-type": "text/plain;charset=UTF-8" }));
    expect(refused.status).toBe(415);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unsupported_media_type");
    expect(body.error.message).toContain("text/plain;charset=UTF-8");
    expect((await echo(post({}))).status).toBe(415);
    expect((await echo(post({ "content-type": "application/json; charset=utf-8" }))).status).toBe(200);
  });

  it("refuses state-changing session requests from another site (Sec-Fetch-Site, else Origin)", async () => {
    const json = { "content-type": "application/json", cookie };
    const crossSite = await sessionEcho(post({ ...json, "sec-fetch-site": "cross-site" }));
    expect(crossSite.status).toBe(403);
    expect(await errorCode(crossSite)).toBe("cross_origin_refused");
    expect((await sessionEcho(post({ ...json, "sec-fetch-site": "same-site" }))).status).toBe(403);
    const foreignOrigin = await sessionEcho(post({ ...json, host: "localhost:4010", origin: "https://evil.example" }));
    expect(foreignOrigin.status).toBe(403);
    const deleteCrossSite = await sessionDelete(post({ cookie, "sec-fetch-site": "cross-site" }, "", "DELETE"));
    expect(deleteCrossSite.status).toBe(403);
    // The app itself, and clients that are not browsers, pass.
    expect((await sessionEcho(post({ ...json, "sec-fetch-site": "same-origin" }))).status).toBe(200);
    expect((await sessionEcho(post({ ...json, host: "localhost:4010", origin: "http://localhost:4010" }))).status).toBe(
      200,
    );
    expect((await sessionEcho(post(json))).status).toBe(200);
  });

  it("exempts API-key routes from the origin check", async () => {
    const response = await keyRoute(
      post({ "content-type": "application/json", authorization: "Bearer nope", "sec-fetch-site": "cross-site" }),
    );
    expect(await errorCode(response)).not.toBe("cross_origin_refused");
  });

  it(`refuses bodies nested deeper than ${MAX_JSON_DEPTH} levels with 422 too_deep`, async () => {
    const deep = await echo(post({ "content-type": "application/json" }, nested(3000)));
    expect(deep.status).toBe(422);
    expect(await errorCode(deep)).toBe("too_deep");
    expect((await echo(post({ "content-type": "application/json" }, nested(MAX_JSON_DEPTH)))).status).toBe(200);
    // Brackets inside strings do not count.
    expect(jsonDepthExceeds(`{"a":"${"[".repeat(1000)}\\"["}`, 2)).toBe(false);
    expect(jsonDepthExceeds(nested(3), 2)).toBe(true);
  });

  it("answers a badly encoded path parameter with 400 JSON", async () => {
    const response = await withPath(new Request("http://localhost/api/x/%ff%fe"), {
      params: Promise.reject(new URIError("URI malformed")),
    });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe("invalid_path");
  });
});

import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { findPasswordHash, storePasswordHash } from "@/lib/db/credentials";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-address";
import { createServiceRoot, installServiceRoot } from "@/lib/services/root";
import { POST } from "./route";

/** A sign-in as `npm start` delivers it: the socket peer is 127.0.0.1 (a local reverse proxy, say). */
function signIn(password: string, forwardedFor?: string, peer = "127.0.0.1"): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json", [PEER_ADDRESS_HEADER]: peer });
  if (forwardedFor) headers.set("x-forwarded-for", forwardedFor);
  return POST(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "admin@example.test", password }),
    }),
  );
}

/**
 * A fresh seeded SQLite database for the enclosing `describe` (admin@example.test /
 * secret-password); `ownerId()` is that account's id once `beforeAll` has run.
 */
function useSeededDatabase(): { ownerId(): string } {
  let test: TestDatabase | undefined;
  let ownerId = "";
  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    ({ ownerId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    }));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test?.dispose();
  });
  return { ownerId: () => ownerId };
}

describe("POST /api/auth/login limits", () => {
  useSeededDatabase();
  beforeEach(() => {
    // Fresh buckets for each case; the peer header is believed as under scripts/serve.mjs.
    installServiceRoot(createServiceRoot());
    vi.stubEnv("TRELLIS_PEER_ADDRESS_HEADER", "1");
    vi.stubEnv("TRELLIS_TRUSTED_PROXIES", "");
  });

  it("does not count successful sign-ins: the twelfth correct one in a row succeeds", async () => {
    for (let attempt = 1; attempt <= 12; attempt++) expect((await signIn("secret-password")).status).toBe(200);
  });

  it("refuses with 429 after ten failures even when each sends a different X-Forwarded-For", async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      statuses.push((await signIn("wrong-password", `198.51.100.${attempt}`)).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const refused = await signIn("secret-password", "198.51.100.99");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("honours X-Forwarded-For from a trusted proxy: each client has its own budget", async () => {
    vi.stubEnv("TRELLIS_TRUSTED_PROXIES", "127.0.0.1/32");
    for (let attempt = 1; attempt <= 12; attempt++) {
      expect((await signIn("wrong-password", `198.51.100.${attempt}`)).status).toBe(401);
    }
    // The account budget is larger; the real user at another address still signs in.
    expect((await signIn("secret-password", "203.0.113.5")).status).toBe(200);
    // The address that failed ten times is refused.
    for (let attempt = 0; attempt < 10; attempt++) await signIn("wrong-password", "192.0.2.1");
    expect((await signIn("secret-password", "192.0.2.1")).status).toBe(429);
  });
});

describe("POST /api/auth/login through better-auth's limiter", () => {
  useSeededDatabase();
  beforeEach(() => {
    // Fresh buckets of ours; better-auth's keep one store per file, so each case uses its own addresses.
    installServiceRoot(createServiceRoot());
    vi.stubEnv("TRELLIS_PEER_ADDRESS_HEADER", "1");
    vi.stubEnv("TRELLIS_TRUSTED_PROXIES", "127.0.0.1/32");
    // Above better-auth's default for sign-in (3 per 10 s): a fifth success proves our rule applies.
    vi.stubEnv("TRELLIS_SIGN_IN_FLOOD_MAX", "5");
  });

  it("refuses the request after the ceiling from one address, even correct ones, while another address signs in", async () => {
    // Only successes: our limiter (failures only) never refuses these, so the 429 is better-auth's.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn("secret-password", "203.0.113.20")).status).toBe(200);
    }
    const refused = await signIn("secret-password", "203.0.113.20");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toContain("sign-in requests");
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await signIn("secret-password", "203.0.113.21")).status).toBe(200);
  });

  it("counts failures too, and a refusal by it is not counted as a failed sign-in", async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn("wrong-password", "203.0.113.30")).status).toBe(401);
    }
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect((await signIn("wrong-password", "203.0.113.30")).status).toBe(429);
    }
    // Had the six refusals counted as failures, ours (ten per address) would refuse this one.
    vi.stubEnv("TRELLIS_SIGN_IN_FLOOD_MAX", "100");
    expect((await signIn("secret-password", "203.0.113.30")).status).toBe(200);
  });

  it("keys on our client address, not on a raw X-Forwarded-For", async () => {
    vi.stubEnv("TRELLIS_TRUSTED_PROXIES", "");
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      statuses.push((await signIn("secret-password", `198.51.100.${40 + attempt}`, "192.0.2.40")).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("POST /api/auth/login passwords", () => {
  const seeded = useSeededDatabase();

  beforeAll(() => installServiceRoot(createServiceRoot()));
  afterAll(() => vi.restoreAllMocks());

  it("costs an unknown e-mail one scrypt, like a known one", async () => {
    const scrypt = vi.spyOn(crypto, "scrypt");
    const response = await POST(
      new Request("http://localhost/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "nobody@example.test", password: "whatever" }),
      }),
    );
    expect(response.status).toBe(401);
    expect(scrypt).toHaveBeenCalled();
    scrypt.mockRestore();
  });

  it("re-stores a first-format hash in the new format on a successful sign-in through better-auth", async () => {
    const salt = crypto.randomBytes(16);
    const hash = crypto.scryptSync("secret-password", salt, 32).toString("base64");
    await storePasswordHash(seeded.ownerId(), `scrypt$${salt.toString("base64")}$${hash}`);
    expect((await signIn("wrong-password")).status).toBe(401);
    expect((await signIn("secret-password")).status).toBe(200);
    // Same salt and hash, now with its parameters spelled out.
    expect(await findPasswordHash(seeded.ownerId())).toBe(`scrypt$N=16384,r=8,p=1$${salt.toString("base64")}$${hash}`);
    expect((await signIn("secret-password")).status).toBe(200);
  });
});

import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, upgradedHash, verifyPassword } from "./passwords";

/** A hash in the first format, as the synchronous hasher wrote it. */
function legacyHash(password: string): string {
  const salt = crypto.randomBytes(16);
  return `scrypt$${salt.toString("base64")}$${crypto.scryptSync(password, salt, 32).toString("base64")}`;
}

describe("passwords", () => {
  it("stores the cost parameters with the hash", async () => {
    const stored = await hashPassword("secret-password");
    expect(stored).toMatch(/^scrypt\$N=16384,r=8,p=1\$[^$]+\$[^$]+$/);
    expect(await verifyPassword("secret-password", stored)).toBe(true);
    expect(await verifyPassword("wrong", stored)).toBe(false);
  });

  it("hashes off the event loop: timers keep firing while a hash is computed", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await hashPassword("secret-password");
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it("verifies first-format hashes and rewrites them in the new format (same salt and hash)", async () => {
    const old = legacyHash("secret-password");
    expect(await verifyPassword("secret-password", old)).toBe(true);
    expect(await verifyPassword("wrong", old)).toBe(false);
    const upgraded = await upgradedHash("secret-password", old);
    expect(upgraded).toMatch(/^scrypt\$N=16384,r=8,p=1\$/);
    expect(await verifyPassword("secret-password", upgraded ?? "")).toBe(true);
    expect(upgraded?.split("$").slice(2)).toEqual(old.split("$").slice(1));
    expect(await upgradedHash("secret-password", upgraded ?? "")).toBeNull();
  });

  it("re-hashes with today's parameters when a hash was made with others", async () => {
    const salt = crypto.randomBytes(16);
    const hash = crypto.scryptSync("pw-123456", salt, 32, { N: 1024, r: 8, p: 1 });
    const weak = `scrypt$N=1024,r=8,p=1$${salt.toString("base64")}$${hash.toString("base64")}`;
    expect(await verifyPassword("pw-123456", weak)).toBe(true);
    const upgraded = await upgradedHash("pw-123456", weak);
    expect(upgraded).toMatch(/^scrypt\$N=16384,r=8,p=1\$/);
    expect(await verifyPassword("pw-123456", upgraded ?? "")).toBe(true);
  });

  it("refuses malformed and absurd parameters instead of computing them", async () => {
    expect(await verifyPassword("x", "scrypt$N=1073741824,r=8,p=1$c2FsdA==$aGFzaA==")).toBe(false);
    expect(await verifyPassword("x", "scrypt$N=1000,r=8,p=1$c2FsdA==$aGFzaA==")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$abc")).toBe(false);
  });
});

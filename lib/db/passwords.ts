import "server-only";
import crypto from "node:crypto";

/** scrypt cost parameters, stored with each hash so they can be raised without breaking old ones. */
export interface ScryptParameters {
  /** CPU/memory cost (a power of two). */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/** What new hashes use (Node's scrypt defaults, 16 MiB of memory per hash). */
export const CURRENT_PARAMETERS: ScryptParameters = { N: 16384, r: 8, p: 1 };

/** The parameters the first format (`scrypt$salt$hash`) was made with: Node's defaults then. */
const LEGACY_PARAMETERS: ScryptParameters = { N: 16384, r: 8, p: 1 };

const KEY_LENGTH = 32;

interface ParsedHash {
  parameters: ScryptParameters;
  salt: string;
  hash: string;
  legacy: boolean;
}

/** Reads `scrypt$N=…,r=…,p=…$salt$hash` or the first format `scrypt$salt$hash`; null when neither. */
function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts[0] !== "scrypt") return null;
  if (parts.length === 3 && parts[1] && parts[2]) {
    return { parameters: LEGACY_PARAMETERS, salt: parts[1], hash: parts[2], legacy: true };
  }
  if (parts.length !== 4 || !parts[2] || !parts[3]) return null;
  const values = Object.fromEntries(
    (parts[1] ?? "").split(",").map((pair) => {
      const [name, value] = pair.split("=");
      return [name, Number(value)];
    }),
  );
  const parameters = { N: values.N, r: values.r, p: values.p };
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  const valid =
    Number.isInteger(parameters.N) &&
    parameters.N >= 2 &&
    parameters.N <= 2 ** 20 &&
    (parameters.N & (parameters.N - 1)) === 0 &&
    Number.isInteger(parameters.r) &&
    parameters.r >= 1 &&
    parameters.r <= 32 &&
    Number.isInteger(parameters.p) &&
    parameters.p >= 1 &&
    parameters.p <= 16;
  return valid ? { parameters, salt: parts[2], hash: parts[3], legacy: false } : null;
}

function format(parameters: ScryptParameters, salt: string, hash: string): string {
  return `scrypt$N=${parameters.N},r=${parameters.r},p=${parameters.p}$${salt}$${hash}`;
}

/** scrypt on libuv's thread pool, so hashing never blocks the event loop that also runs workflows. */
function derive(password: string, salt: Buffer, parameters: ScryptParameters, keyLength: number): Promise<Buffer> {
  const { N, r, p } = parameters;
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, keyLength, { N, r, p, maxmem: 128 * N * r * p + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** scrypt with a random salt, stored as `scrypt$N=16384,r=8,p=1$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await derive(password, salt, CURRENT_PARAMETERS, KEY_LENGTH);
  return format(CURRENT_PARAMETERS, salt.toString("base64"), hash.toString("base64"));
}

/** Constant-time check of a password against `hashPassword` output (either format). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, "base64");
  if (expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(parsed.salt, "base64"), parsed.parameters, expected.length);
  return crypto.timingSafeEqual(expected, actual);
}

/**
 * The hash to store after a successful sign-in with `password`, or null when `stored` is current.
 * A first-format hash made with today's parameters is only rewritten (same salt and hash); other
 * parameters get a fresh hash.
 */
export async function upgradedHash(password: string, stored: string): Promise<string | null> {
  const parsed = parseHash(stored);
  if (!parsed) return null;
  const { N, r, p } = parsed.parameters;
  const current = N === CURRENT_PARAMETERS.N && r === CURRENT_PARAMETERS.r && p === CURRENT_PARAMETERS.p;
  if (current && !parsed.legacy) return null;
  if (current && Buffer.from(parsed.hash, "base64").length === KEY_LENGTH) {
    return format(CURRENT_PARAMETERS, parsed.salt, parsed.hash);
  }
  return hashPassword(password);
}

import "server-only";
import crypto from "node:crypto";
import os from "node:os";

/**
 * Row ids in the form Prisma's `@default(cuid())` gives them (cuid v1: `c`, the time in base 36,
 * a 4-character counter, a 4-character host fingerprint and 8 random characters; 25 characters,
 * sortable by creation time within a process), for rows written with our own SQL rather than
 * Prisma's client (lib/db/run-writes.ts). The random part comes from `crypto`, not Math.random.
 */
export function createCuid(): string {
  counter = (counter + 1) % COUNTER_SPAN;
  return `c${Date.now().toString(36)}${pad(counter.toString(36), 4)}${fingerprint()}${randomBlock()}${randomBlock()}`;
}

const BLOCK = 4;
const COUNTER_SPAN = 36 ** BLOCK;
let counter = crypto.randomInt(COUNTER_SPAN);
let hostFingerprint: string | undefined;

function pad(text: string, length: number): string {
  return text.length >= length ? text.slice(-length) : `${"0".repeat(length - text.length)}${text}`;
}

/** Two characters of the process id and two of the host name, as cuid v1 does. */
function fingerprint(): string {
  if (hostFingerprint) return hostFingerprint;
  const host = os.hostname();
  const hostSum = [...host].reduce((sum, character) => sum + character.charCodeAt(0), host.length + 36);
  hostFingerprint = `${pad(process.pid.toString(36), 2)}${pad(hostSum.toString(36), 2)}`;
  return hostFingerprint;
}

function randomBlock(): string {
  return pad(crypto.randomInt(COUNTER_SPAN).toString(36), BLOCK);
}

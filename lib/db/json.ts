import "server-only";
import type { Prisma } from "./generated/sqlite/client";

/** Narrows a Prisma Json value read from the database to a plain object (or an empty one). */
export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Types a plain JSON-compatible value for a Prisma Json column. Documents are validated by zod
 * before they get here; Prisma's recursive JSON type cannot see that through `unknown` fields.
 */
export function toJson(value: unknown): Prisma.InputJsonValue {
  return (value ?? null) as Prisma.InputJsonValue;
}

import { z } from "zod";

/** A version number in a path or query (`3`). */
const versionNumberSchema = z.coerce
  .number({ error: "Give a version number such as 3." })
  .int("Give a whole version number.")
  .min(1, "Versions start at 1.")
  .max(999_999_999);

/** Path of `/api/workflows/:id/versions/:version/**`. */
export const versionPathSchema = z.object({ id: z.string().min(1).max(200), version: versionNumberSchema });

/** One side of a diff: a version number or `draft`. */
const diffSideSchema = z.union([z.literal("draft"), versionNumberSchema]);

/** Query of `GET /api/workflows/:id/versions/diff?from=1&to=2` (`to` may be `draft`). */
export const diffQuerySchema = z.object({ from: diffSideSchema, to: diffSideSchema });

/** Body of `POST …/versions/:version/restore`: the draft revision the restore is based on, if known. */
export const restoreBodySchema = z.object({ expectedRevision: z.number().int().nonnegative().optional() });

/** Body of `PUT /api/workflows/:id/served-version`: a version to pin, or null to serve the latest. */
export const servedVersionBodySchema = z.object({ version: versionNumberSchema.nullable() });

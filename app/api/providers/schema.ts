import { z } from "zod";
import { modelIdSchema, providerInputSchema } from "@/lib/db/provider-config";

/** Body of `POST /api/providers` and `PUT /api/providers/:name` (the name in the body must match the path on PUT). */
export const providerBodySchema = providerInputSchema;

/** Body of `POST /api/providers/:name/test`: the settings as currently typed, plus an optional model for the 1-token call. */
export const providerTestBodySchema = providerInputSchema.omit({ name: true }).extend({
  model: modelIdSchema.optional(),
});

/** Path of `/api/providers/:name/**`. */
export const providerPathSchema = z.object({ name: z.string().min(1).max(200) });

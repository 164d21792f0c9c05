import { z } from "zod";
import { API_KEY_SCOPES, apiKeyLimitsSchema } from "@/lib/contracts/api-keys";

/** Scopes and limits, shared by create and update. */
const apiKeySettingsSchema = apiKeyLimitsSchema.extend({
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, "Give the key at least one scope").default(["run"]),
  /** The older single-workflow limit; `workflowIds` is the list. */
  workflowId: z.string().min(1).nullish(),
});

/** Body of `POST /api/api-keys`. */
export const createApiKeyBodySchema = apiKeySettingsSchema.extend({
  name: z.string().trim().min(1, "Give the key a name").max(100),
});

/** Body of `PATCH /api/api-keys/:id`: the key's new scopes and limits (all of them). */
export const updateApiKeyBodySchema = apiKeySettingsSchema;

import { z } from "zod";
import { API_KEY_SCOPES } from "@/lib/contracts/api-keys";

/** Body of `POST /api/api-keys`. */
export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1, "Give the key a name").max(100),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).default(["run"]),
  workflowId: z.string().min(1).nullish(),
});

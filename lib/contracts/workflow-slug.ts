import { z } from "zod";

/**
 * A workflow's slug as `PUT /api/workflows/:id/slug` accepts it (isomorphic: the route and a form
 * share it). The published endpoint is `/api/v1/chat/completions` with `model: "<slug>"`.
 */
export const workflowSlugSchema = z
  .string()
  .trim()
  .min(1, "Enter a slug")
  .max(60, "Use at most 60 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes, e.g. ticket-triage");

/** Body of `PUT /api/workflows/:id/slug`. */
export const workflowSlugBodySchema = z.object({ slug: workflowSlugSchema });

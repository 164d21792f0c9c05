import { z } from "zod";

/**
 * Body of `POST /api/workflows/:id/nodes/:nodeId/run`: upstream outputs by node id (plus `item`
 * and `index` for a body node), and optionally the unsaved draft the node belongs to.
 */
export const singleNodeRunBodySchema = z.object({
  variables: z.record(z.string(), z.unknown()).default({}),
  document: z.unknown().optional(),
});

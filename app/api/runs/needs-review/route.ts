import { z } from "zod";
import { route } from "@/lib/http/route";
import { listRunsNeedingReview } from "@/lib/services/run-reviews";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .optional(),
});

/** The needs-review queue: failed or partial runs, or runs rated bad, not yet marked reviewed. */
export const GET = route({ auth: "session", query: querySchema }, async ({ principal, query }) =>
  listRunsNeedingReview(principal, query),
);

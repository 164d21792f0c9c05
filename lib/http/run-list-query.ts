import { z } from "zod";
import { RUN_STATUSES, RUN_TRIGGERS } from "../workflow/run-status";

/** Filters of a run history (`?status=&trigger=&workflowId=&before=&limit=`), as the history pages send them. */
export const runListQuerySchema = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  workflowId: z.string().min(1).optional(),
  /** Only runs started before this instant (ISO): the "load older" cursor. */
  before: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

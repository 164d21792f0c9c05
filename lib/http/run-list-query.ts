import "server-only";
import { z } from "zod";
import { RUN_SORT_KEYS } from "../runs/run-history-sort";
import { RUN_STATUSES, RUN_TRIGGERS } from "../runs/run-status";
import { parseSearchTerms } from "../runs/search-highlight";
import { TrellisError } from "../workflow/errors";

const isoInstant = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/**
 * The run history's query, as the history pages, shared links and API clients send it:
 * `?workflowId=&versionId=&status=failed,partial&trigger=&apiKeyId=&from=&to=&minDurationMs=
 * &minCost=&q=&sort=startedAt|durationMs|cost&direction=desc|asc&cursor=&limit=`.
 * `hasAnnotation` and `reviewed` are parsed here and served by filter extensions the review
 * tables register (lib/db/run-history.ts `registerRunHistoryFilter`); until one is registered a
 * request using them is refused, never answered as if unfiltered.
 */
export const runListQuerySchema = z
  .object({
    workflowId: z.string().min(1).max(100).optional(),
    versionId: z.string().min(1).max(100).optional(),
    /** One status or several, comma-separated. */
    status: z
      .string()
      .transform((value) => value.split(",").filter(Boolean))
      .pipe(z.array(z.enum(RUN_STATUSES)).min(1).max(RUN_STATUSES.length))
      .optional(),
    trigger: z.enum(RUN_TRIGGERS).optional(),
    apiKeyId: z.string().min(1).max(100).optional(),
    /** Started at or after this instant (ISO). */
    from: isoInstant.optional(),
    /** Started before this instant (ISO). */
    to: isoInstant.optional(),
    minDurationMs: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    minCost: z.coerce.number().min(0).max(1e9).optional(),
    /** Full-text search: words and "quoted phrases", all of which must occur. */
    q: z.string().max(500).optional(),
    hasAnnotation: z.enum(["true", "false"]).optional(),
    reviewed: z.enum(["true", "false"]).optional(),
    sort: z.enum(RUN_SORT_KEYS).default("startedAt"),
    direction: z.enum(["asc", "desc"]).default("desc"),
    cursor: z.string().min(1).max(1000).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, {
    path: ["to"],
    message: "must be after from",
  })
  .transform(({ q, hasAnnotation, reviewed, ...rest }) => {
    const searchTerms = q ? parseSearchTerms(q) : [];
    const extensions: Record<string, boolean> = {};
    if (hasAnnotation !== undefined) extensions.hasAnnotation = hasAnnotation === "true";
    if (reviewed !== undefined) extensions.reviewed = reviewed === "true";
    return { ...rest, ...(searchTerms.length ? { searchTerms } : {}), extensions };
  });

/** The parsed history query. */
export type RunListQuery = z.output<typeof runListQuerySchema>;

/** A history query value that is not valid: 422, naming the field. */
export class InvalidRunListQueryError extends TrellisError {
  /** The offending query parameter. */
  readonly details: { field: string };
  constructor(field: string, message: string) {
    super("invalid_filter", `${field}: ${message}`);
    this.details = { field };
  }
}

/** Parses a history URL's search parameters; throws {@link InvalidRunListQueryError} naming the first bad field. */
export function parseRunListQuery(searchParams: URLSearchParams): RunListQuery {
  const parsed = runListQuerySchema.safeParse(Object.fromEntries(searchParams));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidRunListQueryError(String(issue?.path[0] ?? "query"), issue?.message ?? "invalid");
}

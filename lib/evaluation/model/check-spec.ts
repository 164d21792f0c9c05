// The checks a dataset case can carry, as zod schemas (isomorphic: the table editor validates
// with the same schemas the server does). Each check has a stable `name` (unique per case) so
// reports and comparisons can line results up across evaluation runs.
import { z } from "zod";

const name = z
  .string()
  .trim()
  .min(1, "Name the check")
  .max(80)
  .regex(/^[A-Za-z0-9_.:-]+$/, "Check names use letters, digits, _ . : and -");

/**
 * Which value of the run's outputs a check reads: a JSON path into the end node's outputs
 * (`$.answer`, `report`, `items[0].id`). Absent: the only output when there is one, else the
 * whole outputs object as JSON.
 */
const field = z.string().trim().min(1).max(200).optional();

/** A regular expression source, checked to compile. */
const pattern = z
  .string()
  .min(1)
  .max(2000)
  .refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, "Not a valid regular expression");

const flags = z
  .string()
  .regex(/^[imsu]*$/, "Flags: any of i, m, s, u")
  .optional();

/** Output equals `expected` exactly (strings after trimming; other values by deep equality). */
export const exactCheckSchema = z.object({
  kind: z.literal("exact"),
  name,
  field,
  expected: z.unknown(),
  trim: z.boolean().default(true),
});

/** Output text contains every `value` (and none of `absent`). */
export const containsCheckSchema = z.object({
  kind: z.literal("contains"),
  name,
  field,
  values: z.array(z.string().min(1)).default([]),
  absent: z.array(z.string().min(1)).default([]),
  caseSensitive: z.boolean().default(false),
});

/** Output text matches the pattern (or must not, with `negate`). */
export const regexCheckSchema = z.object({
  kind: z.literal("regex"),
  name,
  field,
  pattern,
  flags,
  negate: z.boolean().default(false),
});

/** The value at a JSON path of the outputs equals `equals`, or (as text) matches `matches`. */
export const jsonPathCheckSchema = z
  .object({
    kind: z.literal("json-path"),
    name,
    path: z.string().trim().min(1).max(200),
    equals: z.unknown().optional(),
    matches: pattern.optional(),
    flags,
  })
  .refine((check) => check.equals !== undefined || check.matches !== undefined, {
    message: "Give equals or matches",
    path: ["equals"],
  });

/** A number in the output (the value, or the first number in its text) is within `tolerance` of `expected`. */
export const numericCheckSchema = z.object({
  kind: z.literal("numeric"),
  name,
  field,
  expected: z.number().finite(),
  tolerance: z.number().finite().min(0).default(0),
  /** Read the number right after this regex's match instead of the first number in the text. */
  after: pattern.optional(),
});

/** Matches a tool call's arguments: every listed key equals the value (or, for strings, matches `/.../`). */
const argumentMatchers = z.record(z.string(), z.unknown()).default({});

/** A tool was called (at least `minCalls` times, with matching arguments when given). */
export const toolCalledCheckSchema = z.object({
  kind: z.literal("tool-called"),
  name,
  tool: z.string().min(1),
  arguments: argumentMatchers,
  minCalls: z.number().int().min(1).default(1),
});

/** A tool was never called (with matching arguments, when given). */
export const toolNotCalledCheckSchema = z.object({
  kind: z.literal("tool-not-called"),
  name,
  tool: z.string().min(1),
  arguments: argumentMatchers,
});

/** Every attempt of the node ended `succeeded` (the last attempt, when retried). */
export const nodeSucceededCheckSchema = z.object({
  kind: z.literal("node-succeeded"),
  name,
  nodeId: z.string().min(1),
});

/** The run ended in one of these statuses (default: `succeeded`). */
export const runStatusCheckSchema = z.object({
  kind: z.literal("run-status"),
  name,
  statuses: z
    .array(z.enum(["succeeded", "partial", "failed", "cancelled"]))
    .min(1)
    .default(["succeeded"]),
});

/** Upper limits on the run's cost (USD), latency (ms) and tokens (input + output). */
export const limitsCheckSchema = z
  .object({
    kind: z.literal("limits"),
    name,
    maxCostUsd: z.number().finite().min(0).optional(),
    maxLatencyMs: z.number().finite().min(0).optional(),
    maxTokens: z.number().int().min(0).optional(),
  })
  .refine(
    (check) => check.maxCostUsd !== undefined || check.maxLatencyMs !== undefined || check.maxTokens !== undefined,
    { message: "Give at least one of maxCostUsd, maxLatencyMs, maxTokens", path: ["maxCostUsd"] },
  );

/**
 * Evidence: every claim about a subject (a ticket id) that explains something must quote a snippet
 * the tool returned for that same subject; an explicit gap statement is accepted only when the
 * tool returned no snippet for it. Seed 004's blocker explanations.
 */
export const evidenceCheckSchema = z.object({
  kind: z.literal("evidence"),
  name,
  field,
  /** The tool whose results count as evidence, e.g. `search_meeting_notes`. */
  tool: z.string().min(1),
  /** How subjects are written in the answer, e.g. `\b[A-Z]+-\d+\b`. */
  subjectPattern: pattern.default("\\b[A-Z][A-Z0-9]*-\\d+\\b"),
  /** Field of a result object that holds the quotable text. */
  snippetField: z.string().min(1).default("excerpt"),
  /** A claim segment matching this is a gap statement ("no explanation found"). */
  gapPattern: pattern.default(
    "no (explanation|notes?|meeting notes?|discussion) (was |were )?found|not found in the (searched )?(meeting )?notes|gap",
  ),
  /** A segment matching this explains something and therefore needs evidence. */
  claimPattern: pattern.default(
    "because|due to|wait(s|ing)? (for|on)|blocked (by|on|until)|pending|remains? blocked|has not been|hasn't been|notes? (say|said|mention)|according to|:\\s*\\S",
  ),
  /** Words in a row an unquoted claim must share with a snippet to count as quoting it. */
  minQuoteWords: z.number().int().min(2).max(50).default(6),
  /** Subjects that must appear in the answer at all (an omitted blocker is a failure). */
  requiredSubjects: z.array(z.string().min(1)).default([]),
});

/** LLM-as-judge: a configured model grades the output against a rubric; its cost is counted. */
export const judgeCheckSchema = z.object({
  kind: z.literal("judge"),
  name,
  field,
  rubric: z.string().trim().min(1).max(8000),
  /** The model to ask, as an agent node names one: provider (a workspace provider name) and model id. */
  model: z.object({ provider: z.string().min(1), model: z.string().min(1) }),
  /** Allow the offline demo model explicitly (never chosen silently). */
  allowDemoModel: z.boolean().default(false),
  /** Lowest score (0–1) that passes. */
  passScore: z.number().min(0).max(1).default(0.7),
});

/** Every check kind. */
export const checkSpecSchema = z.discriminatedUnion("kind", [
  exactCheckSchema,
  containsCheckSchema,
  regexCheckSchema,
  jsonPathCheckSchema,
  numericCheckSchema,
  toolCalledCheckSchema,
  toolNotCalledCheckSchema,
  nodeSucceededCheckSchema,
  runStatusCheckSchema,
  limitsCheckSchema,
  evidenceCheckSchema,
  judgeCheckSchema,
]);

/** A check as stored in a dataset case (defaults applied). */
export type CheckSpec = z.output<typeof checkSpecSchema>;
/** A check as written by people (defaults optional). */
export type CheckSpecInput = z.input<typeof checkSpecSchema>;
/** One check kind's stored shape. */
export type CheckOf<Kind extends CheckSpec["kind"]> = Extract<CheckSpec, { kind: Kind }>;

/** Every check kind, for pickers. */
export const CHECK_KINDS = [
  "exact",
  "contains",
  "regex",
  "json-path",
  "numeric",
  "tool-called",
  "tool-not-called",
  "node-succeeded",
  "run-status",
  "limits",
  "evidence",
  "judge",
] as const satisfies readonly CheckSpec["kind"][];

// Dataset cases: inputs for the workflow's start node and the checks its run must pass.
// Stored as a JSON array in a DatasetVersion row (one row per version keeps a version immutable
// and a whole dataset readable in one query; cases are small).
import { z } from "zod";
import { caseFixtureSchema } from "./case-fixture";
import { checkSpecSchema } from "./check-spec";

/** A case id: stable across versions, so comparisons line cases up. */
export const caseIdSchema = z
  .string()
  .trim()
  .min(1, "Give the case an id")
  .max(80)
  .regex(/^[A-Za-z0-9_.:-]+$/, "Case ids use letters, digits, _ . : and -");

/** One dataset case. */
export const datasetCaseSchema = z
  .object({
    id: caseIdSchema,
    name: z.string().trim().max(200).default(""),
    /** Start-node inputs of every trial. */
    inputs: z.record(z.string(), z.unknown()).default({}),
    /** The checks; a trial passes when every one passes. */
    checks: z.array(checkSpecSchema).max(50).default([]),
    tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
    /** Faults and forced arguments for the trials' tools (see case-fixture.ts); none by default. */
    fixture: caseFixtureSchema.optional(),
  })
  .superRefine((value, context) => {
    const seen = new Set<string>();
    value.checks.forEach((check, index) => {
      if (seen.has(check.name))
        context.addIssue({
          code: "custom",
          path: ["checks", index, "name"],
          message: `Check name "${check.name}" is used twice in this case`,
        });
      seen.add(check.name);
    });
  });

/** A stored case (defaults applied). */
export type DatasetCase = z.output<typeof datasetCaseSchema>;
/** A case as people write it. */
export type DatasetCaseInput = z.input<typeof datasetCaseSchema>;

/** Most cases one dataset version may hold. */
export const MAX_DATASET_CASES = 2000;

/** A whole version's cases: ids unique. */
export const datasetCasesSchema = z
  .array(datasetCaseSchema)
  .max(MAX_DATASET_CASES)
  .superRefine((cases, context) => {
    const seen = new Set<string>();
    cases.forEach((entry, index) => {
      if (seen.has(entry.id))
        context.addIssue({ code: "custom", path: [index, "id"], message: `Case id "${entry.id}" is used twice` });
      seen.add(entry.id);
    });
  });

/** A dataset name: unique in its workspace. */
export const datasetNameSchema = z.string().trim().min(1, "Name the dataset").max(120);

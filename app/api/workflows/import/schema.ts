import { z } from "zod";
import { MAX_IMPORT_CHARACTERS } from "@/lib/interop/errors";

const mappingTable = z.record(z.string(), z.string().max(200));

/** Body of `POST /api/workflows/import`. */
export const importWorkflowBodySchema = z.object({
  format: z.enum(["dify", "trellis"], { message: 'Choose "dify" or "trellis"' }),
  /** The file; over MAX_IMPORT_CHARACTERS it is refused with 413 `import_too_large` by the import itself. */
  content: z.string().min(1, "Paste or upload the file"),
  name: z.string().trim().max(120).optional(),
  /** Missing references mapped onto what this workspace has, by kind then name. */
  mapping: z
    .object({
      tools: mappingTable.optional(),
      credentials: mappingTable.optional(),
      providers: mappingTable.optional(),
    })
    .optional(),
  /** Only report; nothing is saved. */
  dryRun: z.boolean().default(false),
});

/** Parsed import body. */
export type ImportWorkflowBody = z.infer<typeof importWorkflowBodySchema>;

/** Request bodies larger than this are refused before they are read (the file plus JSON overhead). */
export const MAX_IMPORT_BODY_BYTES = MAX_IMPORT_CHARACTERS * 4 + 64 * 1024;

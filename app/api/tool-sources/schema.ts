import { z } from "zod";
import { mcpConnectionInputSchema, toolNamePrefixSchema, toolSourceInputSchema } from "@/lib/db/tool-source-config";

/** Body of `POST /api/tool-sources` and `PUT /api/tool-sources/:id`. */
export const toolSourceBodySchema = toolSourceInputSchema;

/** Body of `PATCH /api/tool-sources/:id`: which tools are trusted as read-only. */
export const readOnlyToolsBodySchema = z.object({
  readOnlyTools: z
    .array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "Tool names use 1-64 letters, digits, _ or -"))
    .max(1000),
});

/** Body of `POST /api/tool-sources/test`: an MCP connection to try; `id` lends stored secret values. */
export const testConnectionBodySchema = z.object({
  name: z
    .string()
    .trim()
    .max(80)
    .default("")
    .transform((name) => name || "MCP server"),
  connection: mcpConnectionInputSchema,
  toolNamePrefix: toolNamePrefixSchema,
  id: z.string().max(100).optional(),
});

/** Path of `/api/tool-sources/:id/**`. */
export const toolSourcePathSchema = z.object({ id: z.string().min(1).max(200) });

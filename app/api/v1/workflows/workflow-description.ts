import type { z } from "zod";
import type { CatalogEntry } from "@/lib/services/published-catalog";
import type { workflowDescriptionSchema } from "../schemas";

/** A callable workflow as discovery answers it (the shape `workflowDescriptionSchema` documents). */
export function describeWorkflow(entry: CatalogEntry): z.output<typeof workflowDescriptionSchema> {
  return {
    slug: entry.slug,
    name: entry.name,
    description: entry.description,
    version: entry.version,
    inputs: entry.inputs,
    allow_extra_inputs: entry.allowExtraInputs,
    input_schema: entry.inputSchema,
    outputs: entry.outputs.map((name) => ({ name })),
    chat: entry.chat
      ? {
          query_input: entry.chat.queryInput,
          history_input: entry.chat.historyInput,
          answer_output: entry.chat.answerOutput,
        }
      : null,
    endpoints: {
      run: `/api/v1/workflows/${encodeURIComponent(entry.slug)}/run`,
      chat_model: entry.chat ? entry.slug : null,
      mcp: "/api/v1/mcp",
    },
  };
}

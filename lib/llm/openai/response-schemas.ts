import "server-only";
import { z } from "zod";

/**
 * Schemas for the parts of OpenAI chat completion responses we read. OpenAI-compatible servers
 * differ in what they omit (ids, indexes, usage), so everything optional is `nullish`, and
 * unknown fields are ignored; what we rely on is checked, so a broken proxy reply becomes a
 * typed `model_bad_response` instead of an `undefined` deep in the agent loop.
 */

/** Token usage as reported by the API. */
export const usageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  /** Prompt tokens served from the provider's cache (OpenAI), when reported. */
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
});

const functionCallSchema = z.object({
  name: z.string(),
  arguments: z.string().nullish(),
});

/** A non-streaming `chat.completion`. */
export const chatCompletionSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: functionCallSchema,
              }),
            )
            .nullish(),
          function_call: functionCallSchema.nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema.nullish(),
});

/** One `chat.completion.chunk` of a stream. */
export const chatCompletionChunkSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().nullish(),
                  id: z.string().nullish(),
                  function: z
                    .object({
                      name: z.string().nullish(),
                      arguments: z.string().nullish(),
                    })
                    .nullish(),
                }),
              )
              .nullish(),
            function_call: z
              .object({
                name: z.string().nullish(),
                arguments: z.string().nullish(),
              })
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema.nullish(),
});

/** A validated non-streaming response. */
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
/** A validated stream chunk. */
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

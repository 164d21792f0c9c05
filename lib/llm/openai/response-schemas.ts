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

/**
 * Usage as a response carries it: a usage some server reports in another shape (only
 * `total_tokens`, a null count) counts as unreported, and the tokens are estimated locally (the
 * run record says so), instead of failing an answer that is otherwise whole.
 */
const reportedUsageSchema = usageSchema.nullish().catch(null);

/**
 * Tool call arguments: a JSON string, as OpenAI sends them; some compatible servers send the
 * object itself, which is the same arguments, so it is serialized.
 */
const argumentsSchema = z
  .union([z.string(), z.record(z.string(), z.unknown()).transform((value) => JSON.stringify(value))])
  .nullish();

const functionCallSchema = z.object({
  name: z.string(),
  arguments: argumentsSchema,
});

/**
 * A message's content: text, or (some compatible servers) a list of parts whose text parts are
 * joined; parts of other kinds (a reasoning trace) are not the answer.
 */
const contentSchema = z
  .union([
    z.string(),
    z.array(z.looseObject({ type: z.string().nullish(), text: z.string().nullish() })).transform((parts) =>
      parts
        .filter((part) => (part.type ?? "text") === "text")
        .map((part) => part.text ?? "")
        .join(""),
    ),
  ])
  .nullish();

/**
 * Reasoning a server sends apart from the answer: `reasoning_content` (DeepSeek, vLLM, llama.cpp)
 * or `reasoning` (OpenRouter, Ollama). Anything but a string (OpenRouter's detail objects live in
 * `reasoning_details`) is not read, and never fails the answer.
 */
const reasoningSchema = z.string().nullish().catch(null);

/** A non-streaming `chat.completion`. */
export const chatCompletionSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: contentSchema,
          reasoning_content: reasoningSchema,
          reasoning: reasoningSchema,
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
  usage: reportedUsageSchema,
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
            content: contentSchema,
            reasoning_content: reasoningSchema,
            reasoning: reasoningSchema,
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().nullish(),
                  id: z.string().nullish(),
                  function: z
                    .object({
                      name: z.string().nullish(),
                      arguments: argumentsSchema,
                    })
                    .nullish(),
                }),
              )
              .nullish(),
            function_call: z
              .object({
                name: z.string().nullish(),
                arguments: argumentsSchema,
              })
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: reportedUsageSchema,
});

/** A validated non-streaming response. */
export type ChatCompletion = z.output<typeof chatCompletionSchema>;
/** A validated stream chunk. */
export type ChatCompletionChunk = z.output<typeof chatCompletionChunkSchema>;

import { z } from "zod";

/** One content part; only text parts can feed a workflow's start inputs. */
const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });

/** One chat message; its content is text or text parts (joined), null only for tool-calling turns. */
const messageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z
    .union([z.string(), z.array(textPartSchema), z.null()], {
      // zod's own "Invalid input" says nothing of why an image part is refused.
      error:
        "content must be a string or text parts ({ type: 'text', text }): image, audio and file parts cannot feed a workflow's inputs",
    })
    .optional(),
});

/**
 * Body of `POST /api/v1/chat/completions`, as the Chat Completions API defines it. Sampling
 * options (`temperature`, `max_tokens`, `tools`, …) are accepted and ignored: the workflow's own
 * nodes decide how models are called.
 */
export const chatCompletionBodySchema = z.object({
  /** The workflow slug, or `slug@version` to pin a published version. */
  model: z.string().min(1).max(300),
  messages: z.array(messageSchema).min(1).max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

/** A message's text: a string as is, text parts joined. */
export function messageText(content: z.output<typeof messageSchema>["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text).join("");
}

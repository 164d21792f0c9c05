import type { ModelResponse, ModelStreamPart } from "../language-model";

/** Everything a stream produced: the parts in order and the final response. */
export interface CollectedStream {
  /** Every part, finish included. */
  parts: ModelStreamPart[];
  /** Concatenated text deltas. */
  text: string;
  /** The finish part's response. */
  response: ModelResponse;
}

/** Drains a model stream; throws if it ends without a `finish` part. */
export async function collectStream(stream: AsyncIterable<ModelStreamPart>): Promise<CollectedStream> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  const finish = parts[parts.length - 1];
  if (finish?.type !== "finish") throw new Error("The stream did not end with a finish part.");
  const text = parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");
  return { parts, text, response: finish.response };
}

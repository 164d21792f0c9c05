/**
 * One `chat.completion.chunk` payload as a compatible server sends it, for the fake server's
 * `rawStream` (fields OpenAI's own chunks lack, such as `reasoning_content`, go in `delta`).
 */
export function rawChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

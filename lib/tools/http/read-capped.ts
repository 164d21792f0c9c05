import "server-only";

/**
 * Reads a body stream as UTF-8 text, refusing more than `limit` bytes: past it the stream is
 * cancelled and the answer is null, so an oversized body is never buffered whole. Callers raise
 * their own error (a 413 for a request, a tool error for an answer).
 */
export async function readCappedText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | null> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Runs the fake OpenAI-compatible server on its own, for the demo, e2e tests and benchmarks:
 *
 *   tsx lib/llm/fake-server/cli.ts --port 4010 [--host 127.0.0.1] [--script replies.json]
 *
 * `--script` takes a JSON array of `FakeReply` objects served in order; after that (or
 * without it) the server echoes the last user message. Point a provider at the printed URL.
 */
import { readFile } from "node:fs/promises";
import { startFakeOpenAIServer } from "./fake-openai-server";
import type { FakeReply } from "./types";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function main(): Promise<void> {
  const port = Number(argument("port") ?? 4010);
  const server = await startFakeOpenAIServer({ port, host: argument("host") ?? "127.0.0.1" });
  const scriptPath = argument("script");
  if (scriptPath) server.script(...(JSON.parse(await readFile(scriptPath, "utf8")) as FakeReply[]));
  console.log(`Fake OpenAI server listening on ${server.url}`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

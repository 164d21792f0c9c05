import { type FakeChatRequestBody, type FakeOpenAIServer, startFakeOpenAIServer } from "../../llm/fake-server";
import type { LanguageModel, ModelProfile } from "../../llm/language-model";
import { createOpenAICompatibleModel } from "../../llm/openai/openai-language-model";

/** A fake OpenAI-compatible server and a real SDK-backed model pointed at it. */
export interface AgentTestbed {
  /** The fake server (script replies, read recorded requests). */
  server: FakeOpenAIServer;
  /** A model over the real openai adapter talking HTTP to the server. */
  model(options?: { modelId?: string; profile?: Partial<ModelProfile> }): LanguageModel;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts the fake server; use one per test file and `server.reset()` between tests. */
export async function startAgentTestbed(): Promise<AgentTestbed> {
  const server = await startFakeOpenAIServer();
  return {
    server,
    model: (options = {}) =>
      createOpenAICompatibleModel({
        baseURL: server.url,
        apiKey: "test-key",
        model: options.modelId ?? "gpt-4o-mini",
        profile: options.profile,
        retry: { maxAttempts: 1 },
      }),
    close: () => server.close(),
  };
}

/** Messages of a recorded request with a given role. */
export function messagesWithRole(body: FakeChatRequestBody, role: string): Array<Record<string, unknown>> {
  return body.messages.filter((message) => message.role === role);
}

/** The content of the last message of a recorded request, as text. */
export function lastMessageContent(body: FakeChatRequestBody): string {
  const last = body.messages[body.messages.length - 1];
  return typeof last?.content === "string" ? last.content : "";
}

/** All tool-message contents of a recorded request, joined. */
export function toolResultsText(body: FakeChatRequestBody): string {
  return body.messages
    .filter((message) => message.role === "tool" || message.role === "function")
    .map((message) => String(message.content ?? ""))
    .join("\n");
}

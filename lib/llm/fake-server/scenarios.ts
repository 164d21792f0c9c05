import type { FakeReply } from "./types";

/**
 * Named, reusable fake-server scenarios for tests of honest outcomes (engine, services and the
 * published endpoint script the same situations): `server.script(...scenarios.failTimes(2, 429), reply)`.
 */
export const fakeScenarios = {
  /** A provider that never answers. */
  hung(): FakeReply {
    return { hang: true };
  },
  /** `count` error replies in a row (e.g. 429 or 500), each with a short Retry-After. */
  failTimes(count: number, status: 429 | 500 | 503 = 429, retryAfterMs = 10): FakeReply[] {
    return Array.from({ length: count }, () => ({ error: { status, retryAfterMs } }));
  },
  /** A 401 whose message echoes the API key the client sent. */
  echoKey401(): FakeReply {
    return { error: { status: 401, echoApiKey: true } };
  },
  /** ReAct-format text (a tool request in prose), the wrong protocol for a function-calling agent. */
  reactText(tool = "get_current_weather", input = '{"city": "Athens"}'): FakeReply {
    return { text: `Thought: I need the weather first.\nAction: ${tool}\nAction Input: ${input}` };
  },
  /** A plain answer with fixed usage. */
  answer(text: string, promptTokens = 100, completionTokens = 20): FakeReply {
    return { text, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } };
  },
} as const;

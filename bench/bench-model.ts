/**
 * The bench's fake model replies (bench/api.ts): a plan for the planner, 200 ms late for the
 * slow model, else a short answer. Shared by the bench and its model process
 * (bench/fake-model-process.ts), which imports it on its own.
 */
import type { FakeChatRequestBody, FakeReply } from "../lib/llm/fake-server";

/** The model of the ten-branch case, answering `SLOW_MODEL_MS` late. */
export const SLOW_MODEL = "gpt-slow-200ms";
/** How late the slow model answers. */
export const SLOW_MODEL_MS = 200;

const PLAN = JSON.stringify({
  steps: [
    { id: "w1", action: "Weather in Paris", tool: "get_current_weather", input: { city: "Paris" } },
    { id: "w2", action: "Weather in Berlin", tool: "get_current_weather", input: { city: "Berlin" } },
    {
      id: "c1",
      action: "Convert 100 EUR to USD",
      tool: "convert_currency",
      input: { amount: 100, from_currency: "EUR", to_currency: "USD" },
    },
  ],
});

/** The fake model's reply to a request. */
export function benchResponder(request: FakeChatRequestBody): FakeReply {
  const system = request.messages.find((message) => message.role === "system")?.content;
  if (typeof system === "string" && /planner of a plan-and-execute agent/i.test(system)) return { text: PLAN };
  if (request.model === SLOW_MODEL) return { text: "pong", delayMs: SLOW_MODEL_MS };
  return { text: "pong from the bench model" };
}

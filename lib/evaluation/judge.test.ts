import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoModel } from "../llm/demo";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import { createModelResolver } from "../llm/model-resolver";
import type { TrialRecord } from "./checks/trial-record";
import { createJudge } from "./judge";
import { type CheckOf, checkSpecSchema } from "./model/check-spec";

const record: TrialRecord = {
  runId: "r",
  status: "succeeded",
  outputs: { answer: "It did not rain in Cairo, so the bet is lost." },
  errorCode: null,
  cost: 0,
  latencyMs: 1,
  tokens: 1,
  tokensByMode: {},
  usesDemoModel: false,
  nodeRuns: [],
  toolCalls: [],
};

function judgeCheck(overrides: Record<string, unknown> = {}): CheckOf<"judge"> {
  return checkSpecSchema.parse({
    kind: "judge",
    name: "polite",
    rubric: "The answer says whether the bet was won, politely.",
    model: { provider: "grader", model: "gpt-4o-mini" },
    ...overrides,
  }) as CheckOf<"judge">;
}

describe("LLM-as-judge through lib/llm (real openai SDK, fake server)", () => {
  let server: FakeOpenAIServer;
  let judge: ReturnType<typeof createJudge>;
  beforeAll(async () => {
    server = await startFakeOpenAIServer();
    const models = createModelResolver({
      createDemoModel,
      loadProvider: async (name) => (name === "grader" ? { baseURL: server.url, apiKey: "sk-judge" } : null),
      env: { TRELLIS_DEMO_MODEL: "on" },
    });
    judge = createJudge(models);
  });
  afterAll(async () => server?.close());

  it("passes at or above passScore, with the model's reason and its cost counted", async () => {
    server.script({
      text: '{"score": 0.9, "reason": "Clear and polite."}',
      usage: { prompt_tokens: 1000, completion_tokens: 100 },
    });
    const result = await judge(judgeCheck(), record);
    expect(result).toMatchObject({ passed: true, reason: "Score 0.9 (pass ≥ 0.7): Clear and polite." });
    expect(result.cost).toBeGreaterThan(0);
    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain("The answer says whether the bet was won");
    expect(sent).toContain("bet is lost");
  });

  it("fails below passScore and on a reply that is not the verdict JSON", async () => {
    server.script({ text: '{"score": 0.2, "reason": "Rude."}' });
    expect(await judge(judgeCheck(), record)).toMatchObject({ passed: false, reason: "Score 0.2 (pass ≥ 0.7): Rude." });
    server.script({ text: "Looks fine to me" });
    expect((await judge(judgeCheck(), record)).reason).toContain('not {"score", "reason"} JSON');
  });

  it("never grades with the demo model silently", async () => {
    const demo = await judge(judgeCheck({ model: { provider: "demo", model: "demo" } }), record);
    expect(demo.passed).toBe(false);
    expect(demo.reason).toContain("offline demo model");
    const missing = await judge(judgeCheck({ model: { provider: "nobody", model: "x" } }), record);
    expect(missing.passed).toBe(false);
    expect(missing.reason).toContain("not available");
  });
});

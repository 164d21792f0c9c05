import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeScenarios } from "@/lib/llm/fake-server/scenarios";
import { helperAnswer, type OpenAiApiFixture, startOpenAiApiFixture } from "../../testing/openai-api-fixture";
import { python, runPythonClient } from "../../testing/python-client";

/**
 * The official Python `openai` SDK as the client of the OpenAI-compatible API, stream and not:
 * `npm test` installs it (scripts/python-sdks.sh) and passes its Python in
 * TRELLIS_TEST_PYTHON. Skipped, as `npm test` then says, where it cannot be installed.
 */

interface PythonAnswers {
  sdk: string;
  models: string[];
  retrieved: Record<string, unknown>;
  completion: Record<string, unknown> & { choices: { message: { content: string } }[] };
  chunks: {
    choices: { delta: { role?: string | null; content?: string | null }; finish_reason?: string | null }[];
    usage?: Record<string, number> | null;
  }[];
  pinned: string;
  helper: { deltas: string[]; final: Record<string, unknown> };
  raw: { status: number; content_type: string; content: string };
  not_found: Record<string, unknown> | null;
  bad_key: Record<string, unknown> | null;
}

describe.skipIf(!python)("OpenAI-compatible API through the official Python SDK", () => {
  let fixture: OpenAiApiFixture;

  beforeAll(async () => {
    fixture = await startOpenAiApiFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("lists and retrieves models, completes, streams with usage (raw and through the stream helper), reads raw responses, and raises NotFoundError and AuthenticationError", async () => {
    fixture.fake.script(
      fakeScenarios.answer("Forty-two.", 30, 4),
      fakeScenarios.answer("The sky is blue over Athens today.", 12, 8),
      fakeScenarios.answer(helperAnswer.text, helperAnswer.promptTokens, helperAnswer.completionTokens),
    );
    const answers = await runPythonClient<PythonAnswers>("openai-python-client.py", {
      OPENAI_BASE_URL: fixture.baseURL,
      OPENAI_API_KEY: fixture.secret,
    });
    expect(answers.sdk).toMatch(/^\d+\./);
    expect(answers.models).toEqual(["ask", "counter", "echo", "pinned", "topics", "unmapped"]);
    expect(answers.retrieved).toMatchObject({ id: "pinned@1", object: "model", owned_by: "trellis" });
    expect(answers.completion).toMatchObject({
      object: "chat.completion",
      model: "ask",
      choices: [{ index: 0, message: { role: "assistant", content: "Forty-two." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
    });
    const { chunks } = answers;
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const contents = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""));
    expect(contents.join("")).toBe("The sky is blue over Athens today.");
    expect(contents.filter((content) => content !== "").length).toBeGreaterThan(2);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 8 } });
    // The last user message is the question; the earlier ones are the history (v1's template shows both).
    expect(answers.pinned).toMatch(/^v1 Q=Now\? H=.*Earlier/);
    // The stream helper (`chat.completions.stream`): content events piece by piece, and the
    // completion it assembles from the chunks, with the finish reason and the usage chunk.
    expect(answers.helper.deltas.join("")).toBe(helperAnswer.text);
    expect(answers.helper.deltas.length).toBeGreaterThan(2);
    expect(answers.helper.final).toMatchObject(helperAnswer.completion);
    expect(answers.raw).toEqual({
      status: 200,
      content_type: "application/json",
      content: "v1 Q=Meaning of life? H=[]",
    });
    expect(answers.not_found).toEqual({
      class: "NotFoundError",
      status: 404,
      code: "workflow_not_found",
      param: "model",
      type: "invalid_request_error",
    });
    expect(answers.bad_key).toMatchObject({ class: "AuthenticationError", status: 401, code: "invalid_api_key" });
    // Only the two `ask` calls reached a model (`pinned` is a template), each with its question.
    expect(fixture.fake.requests.map((request) => request.body.messages.at(-1)?.content)).toEqual([
      "Meaning of life?",
      "Sky?",
      "Helper?",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../engine/testing/scripted-model";
import { forwardingModel, type ModelRequest } from "./language-model";
import { ModelCallLedger } from "./model-call-ledger";
import { withAttemptTimeouts } from "./with-attempt-timeouts";

const request: ModelRequest = { messages: [{ role: "user", content: "ping" }] };

describe("models that wrap a model", () => {
  it("forwardingModel keeps the model's identity, read through, and answers with the calls given", async () => {
    const inner = createScriptedModel(["inner"]);
    const outer = forwardingModel(inner, {
      generate: async (call) => ({ ...(await inner.generate(call)), text: "outer" }),
      stream: (call) => inner.stream(call),
    });
    expect([outer.provider, outer.modelId, outer.isDemo]).toEqual(["scripted", "scripted", false]);
    expect(outer.profile).toBe(inner.profile);
    // Read through, not copied: what the model says later is what the wrapper says.
    Object.defineProperty(inner, "modelId", { value: "renamed" });
    expect(outer.modelId).toBe("renamed");
    expect((await outer.generate(request)).text).toBe("outer");
  });

  it("the ledger records each call (whole and streamed) and wrapping twice is a no-op", async () => {
    const ledger = new ModelCallLedger();
    const model = ledger.wrap(createScriptedModel(["one", "two"]));
    expect(ledger.wrap(model)).toBe(model);
    expect(model.provider).toBe("scripted");
    await model.generate(request);
    for await (const _part of model.stream(request)) {
      // read to the end
    }
    expect(ledger.calls.map((call) => [call.mode, call.status, call.inputTokens])).toEqual([
      ["generate", "succeeded", 10],
      ["stream", "succeeded", 10],
    ]);
    expect(ledger.usage.outputTokens).toBe(10);
  });

  it("withAttemptTimeouts adds the node's bounds where the request sets none, and leaves a model without bounds as it is", async () => {
    const inner = createScriptedModel(["ok"]);
    expect(withAttemptTimeouts(inner, undefined)).toBe(inner);
    expect(withAttemptTimeouts(inner, { firstByteMs: undefined })).toBe(inner);
    const bounded = withAttemptTimeouts(inner, { firstByteMs: 1_000, totalMs: 5_000 });
    expect(bounded.modelId).toBe("scripted");
    await bounded.generate(request);
    await bounded.generate({ ...request, attemptTimeouts: { totalMs: 9_000 } });
    expect(inner.requests.map((sent) => sent.attemptTimeouts)).toEqual([
      { firstByteMs: 1_000, totalMs: 5_000 },
      { firstByteMs: 1_000, totalMs: 9_000 },
    ]);
  });
});

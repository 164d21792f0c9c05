import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBuiltInToolRegistry } from "../tools/built-ins";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { compileWorkflow } from "../workflow/compile";
import { reactBetExample } from "../workflow/examples/react-bet";
import { createTestServices } from "./testing";
import { eventsOfType, type FakeProviderHarness, runRecorded, startFakeProvider } from "./testing/fake-provider";

// Seed 003's bet with the seed's exact tool schema: the model calls get_current_weather({city})
// and, only if it rained, convert_currency({amount, from_currency, to_currency}); the built-in
// tools answer with the seed's fields. Real engine, real openai SDK, fake provider, demo stub.

describe("seed 003: the rain bet with the seed's argument names", () => {
  let provider: FakeProviderHarness;
  let stub: DemoApiStub;
  beforeAll(async () => {
    provider = await startFakeProvider();
    stub = await startDemoApiStub({ port: 0 });
  });
  afterAll(async () => {
    await provider.close();
    await stub.close();
  });
  beforeEach(() => provider.server.reset());

  const services = () =>
    createTestServices({
      models: provider.resolver,
      tools: createBuiltInToolRegistry({
        weather: { geocodingUrl: `${stub.origin}/v1/search`, forecastUrl: `${stub.origin}/v1/forecast` },
        currency: { baseUrl: `${stub.origin}/v2` },
      }),
    });

  const workflow = () => {
    const document = structuredClone(reactBetExample.document);
    const agent = document.nodes.find((node) => node.id === "agent");
    if (!agent) throw new Error("the example has no agent");
    Object.assign(agent.data, { mode: "function_call", model: { provider: "fake", model: "gpt-4o-mini" } });
    const compiled = compileWorkflow(document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    return compiled.workflow;
  };

  it("offers the seed's schema and, when it rained, converts with from_currency/to_currency", async () => {
    provider.server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city": "Athens"}' }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "convert_currency",
            arguments: '{"amount": 100, "from_currency": "EUR", "to_currency": "USD"}',
          },
        ],
      },
      { text: "It did rain in Athens today (3.2mm of precipitation), so you won the bet! 108.50 USD." },
    );
    const { result, recorder } = await runRecorded(workflow(), { city: "Athens", stake: 100 }, services());
    expect(result.status).toBe("succeeded");
    const offered = provider.server.requests[0].body.tools?.find((tool) => tool.function.name === "convert_currency");
    expect(offered?.function.parameters).toMatchObject({
      type: "object",
      properties: { amount: { type: "number" }, from_currency: { type: "string" }, to_currency: { type: "string" } },
      required: ["amount", "from_currency", "to_currency"],
    });
    const results = eventsOfType(recorder.events, "tool-result");
    expect(results.map((event) => [event.toolName, event.ok])).toEqual([
      ["get_current_weather", true],
      ["convert_currency", true],
    ]);
    expect(results[0].result).toEqual({ city: "Athens", temperature: 17.4, precipitation_mm: 3.2, unit: "celsius" });
    expect(results[1].result).toEqual({
      amount: 100,
      from_currency: "EUR",
      to_currency: "USD",
      converted_amount: 108.5,
      rate: 1.085,
    });
  });

  it("when it did not rain, the loop ends after the weather call without converting", async () => {
    provider.server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city": "Cairo"}' }] },
      { text: "Unfortunately, it did not rain in Cairo today, so you lost the bet. No currency conversion needed!" },
    );
    const { result, recorder } = await runRecorded(workflow(), { city: "Cairo", stake: 100 }, services());
    expect(result.status).toBe("succeeded");
    const results = eventsOfType(recorder.events, "tool-result");
    expect(results.map((event) => event.toolName)).toEqual(["get_current_weather"]);
    expect(results[0].result).toMatchObject({ city: "Cairo", precipitation_mm: 0 });
    expect(provider.server.requests).toHaveLength(2);
  });
});

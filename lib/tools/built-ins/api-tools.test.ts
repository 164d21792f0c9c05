import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoApiStub, startDemoApiStub } from "../demo-stub/server";
import { testContext } from "../test-support/local-server";
import { createConvertCurrencyTool } from "./convert-currency";
import { createSearchMeetingNotesTool, createSearchTicketsTool } from "./demo-tickets";
import { createGetCurrentWeatherTool } from "./get-current-weather";

describe("weather, currency and ticket tools against the demo stub", () => {
  let stub: DemoApiStub;
  beforeAll(async () => {
    stub = await startDemoApiStub({ port: 0 });
  });
  afterAll(() => stub.close());

  const weather = () =>
    createGetCurrentWeatherTool({
      geocodingUrl: `${stub.origin}/v1/search`,
      forecastUrl: `${stub.origin}/v1/forecast`,
    });

  it("gets rain in Athens and none in Cairo (seed 003)", async () => {
    const athens = await weather().execute({ city: "Athens" }, testContext());
    expect(athens).toMatchObject({
      ok: true,
      content: { city: "Athens", temperature: 17.4, precipitation_mm: 3.2, unit: "celsius" },
    });
    if (athens.ok) expect(athens.provenance.source).toContain(`${stub.origin}/v1/forecast?latitude=37.98376`);
    const cairo = await weather().execute({ city: "Cairo", unit: "fahrenheit" }, testContext());
    expect(cairo).toMatchObject({
      ok: true,
      content: { city: "Cairo", temperature: 93.4, precipitation_mm: 0, unit: "fahrenheit" },
    });
    // Exactly seed 003's fields, nothing else.
    if (athens.ok)
      expect(Object.keys(athens.content as object).sort()).toEqual(["city", "precipitation_mm", "temperature", "unit"]);
  });

  it("reports an unknown city as city_not_found", async () => {
    expect(await weather().execute({ city: "Atlantis" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "city_not_found", message: 'No city named "Atlantis" was found' },
      retryable: false,
    });
  });

  it("reads base URLs from the environment and allowlists only those hosts", async () => {
    Object.assign(process.env, stub.environment);
    try {
      const result = await createGetCurrentWeatherTool().execute({ city: "London" }, testContext());
      expect(result).toMatchObject({ ok: true, content: { city: "London", precipitation_mm: 1.1 } });
      const converted = await createConvertCurrencyTool().execute(
        { amount: 100, from_currency: "EUR", to_currency: "USD" },
        testContext(),
      );
      expect(converted).toMatchObject({ ok: true, content: { converted_amount: 108.5 } });
    } finally {
      for (const name of Object.keys(stub.environment)) delete process.env[name];
    }
  });

  it("refuses a local base URL that was not configured by the operator (SSRF guard still on)", async () => {
    const tool = createGetCurrentWeatherTool({ forecastUrl: `${stub.origin}/v1/forecast` });
    // The geocoding default is the public host; point DNS for it at loopback to prove the guard applies.
    const guarded = createGetCurrentWeatherTool({
      forecastUrl: `${stub.origin}/v1/forecast`,
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    expect(tool.name).toBe("get_current_weather");
    expect(await guarded.execute({ city: "Athens" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "ssrf_blocked", message: expect.stringContaining("geocoding-api.open-meteo.com") },
    });
  });

  it("converts currency with fixed rates (seed 003: 100 EUR to USD)", async () => {
    const tool = createConvertCurrencyTool({ baseUrl: `${stub.origin}/v2` });
    const seedAnswer = { amount: 100, from_currency: "EUR", to_currency: "USD", converted_amount: 108.5, rate: 1.085 };
    const converted = await tool.execute({ amount: 100, from_currency: "eur", to_currency: "USD" }, testContext());
    expect(converted).toMatchObject({ ok: true, content: seedAnswer });
    if (converted.ok) expect(converted.content).toEqual(seedAnswer);
    expect(tool.parameters).toMatchObject({ required: ["amount", "from_currency", "to_currency"] });
    expect(Object.keys((tool.parameters as { properties: object }).properties)).toEqual([
      "amount",
      "from_currency",
      "to_currency",
    ]);
    // Saved workflows written before seed 003's names still work.
    expect(await tool.execute({ amount: 100, from: "EUR", to: "USD" }, testContext())).toMatchObject({
      ok: true,
      content: seedAnswer,
    });
    expect(await tool.execute({ amount: 5, from_currency: "EUR", to_currency: "XYZ" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "unknown_currency" },
    });
    expect(await tool.execute({ amount: 5, from_currency: "EURO", to_currency: "USD" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });

  it("searches blocked tickets, then notes by ticket ID; PX-24 has none (seed 004)", async () => {
    const options = { baseUrl: `${stub.origin}/demo` };
    const tickets = await createSearchTicketsTool(options).execute(
      { project_id: "PX", status: "blocked" },
      testContext(),
    );
    expect(tickets).toMatchObject({
      ok: true,
      content: { tickets: [{ id: "PX-17" }, { id: "PX-24" }], next_cursor: null },
    });
    const notes = await createSearchMeetingNotesTool(options).execute(
      { ticket_ids: ["PX-17", "PX-24"] },
      testContext(),
    );
    if (!notes.ok) throw new Error(notes.error.message);
    const results = (notes.content as { results: Array<{ ticket_id: string; notes: unknown[] }> }).results;
    expect(results.map((entry) => [entry.ticket_id, entry.notes.length])).toEqual([
      ["PX-17", 2],
      ["PX-24", 0],
    ]);
  });

  it("paginates open tickets with a cursor", async () => {
    const tool = createSearchTicketsTool({ baseUrl: `${stub.origin}/demo` });
    const first = await tool.execute({ project_id: "PX", status: "open" }, testContext());
    expect(first).toMatchObject({ ok: true, content: { next_cursor: "2" } });
    const second = await tool.execute({ project_id: "PX", status: "open", cursor: "2" }, testContext());
    expect(second).toMatchObject({ ok: true, content: { tickets: [{ id: "PX-30" }], next_cursor: null } });
  });

  it("surfaces an injected transient failure as a retryable upstream_error, then recovers", async () => {
    const tool = createSearchMeetingNotesTool({ baseUrl: `${stub.origin}/demo` });
    stub.failNext("/demo/meeting-notes");
    expect(await tool.execute({ ticket_ids: ["PX-17"] }, testContext())).toMatchObject({
      ok: false,
      error: { code: "upstream_error" },
      retryable: true,
    });
    expect((await tool.execute({ ticket_ids: ["PX-17"] }, testContext())).ok).toBe(true);
  });

  it("schedules a failure through the control endpoint", async () => {
    const response = await fetch(`${stub.origin}/_control/fail-next`, {
      method: "POST",
      body: JSON.stringify({ path: "/demo/tickets", status: 500 }),
    });
    expect(response.status).toBe(202);
    expect((await fetch(`${stub.origin}/demo/tickets/search?project_id=PX`)).status).toBe(500);
    expect((await fetch(`${stub.origin}/demo/tickets/search?project_id=PX`)).status).toBe(200);
  });

  it("delays matching answers through the control endpoint until cleared", async () => {
    const timed = async (path: string) => {
      const startedAt = performance.now();
      const response = await fetch(`${stub.origin}${path}`);
      return { status: response.status, ms: performance.now() - startedAt };
    };
    const set = await fetch(`${stub.origin}/_control/delay`, {
      method: "POST",
      body: JSON.stringify({ path: "/demo/tickets", ms: 300 }),
    });
    expect(set.status).toBe(202);
    const slow = await timed("/demo/tickets/search?project_id=PX");
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(290);
    // Other paths are not slowed (a generous bound: only the ordering matters).
    expect((await timed("/demo/meeting-notes/search?ticket_ids=PX-17")).ms).toBeLessThan(slow.ms);
    await fetch(`${stub.origin}/_control/delay`, {
      method: "POST",
      body: JSON.stringify({ path: "/demo/tickets", ms: 0 }),
    });
    expect((await timed("/demo/tickets/search?project_id=PX")).ms).toBeLessThan(slow.ms);
  });
});

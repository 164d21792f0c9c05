import { describe, expect, it } from "vitest";
import { parseCsv, parseJsonl, toCsv, toJsonl } from "./dataset-io";

const JSONL = [
  '{"id":"rain","name":"Athens","inputs":{"city":"Athens","stake":100},"checks":[{"kind":"contains","name":"usd","values":["USD"]}]}',
  "",
  '{"id":"dry","inputs":{"city":"Cairo"},"checks":[{"kind":"tool-not-called","name":"no-conversion","tool":"convert_currency"}],"tags":["lost"]}',
].join("\n");

describe("JSONL", () => {
  it("round-trips cases with defaults applied", () => {
    const parsed = parseJsonl(JSONL);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.cases.map((entry) => entry.id)).toEqual(["rain", "dry"]);
    expect(parsed.cases[1]).toMatchObject({ name: "", tags: ["lost"], checks: [{ arguments: {} }] });
    const again = parseJsonl(toJsonl(parsed.cases));
    expect(again).toEqual(parsed);
  });

  it("names the line and the field of every problem", () => {
    const bad = [
      '{"id":"a","checks":[{"kind":"regex","name":"r","pattern":"("}]}',
      "{not json",
      '{"id":"b","checks":[{"kind":"contains"}]}',
    ].join("\n");
    const parsed = parseJsonl(bad);
    expect(parsed).toEqual({ ok: false, issues: [expect.objectContaining({ line: 2, field: "" })] });
    const fields = parseJsonl([bad.split("\n")[0], bad.split("\n")[2], '{"id":"a"}', '{"id":"bad id!"}'].join("\n"));
    if (fields.ok) throw new Error("expected issues");
    expect(fields.issues.map(({ line, field }) => `${line}:${field}`)).toEqual([
      "1:checks.0.pattern",
      "2:checks.0.name",
      "4:id",
    ]);
    const duplicate = parseJsonl('{"id":"a"}\n{"id":"a"}');
    expect(duplicate).toEqual({
      ok: false,
      issues: [{ line: 2, field: "id", message: 'Case id "a" is also on line 1' }],
    });
  });
});

describe("CSV", () => {
  it("reads input.<name> columns, JSON columns, quoted fields spanning lines, and round-trips", () => {
    const csv = [
      "id,name,input.city,input.stake,tags,checks",
      'rain,"Athens, rainy",Athens,100,won;rain,"[{""kind"":""contains"",""name"":""usd"",""values"":[""USD""]}]"',
      'dry,"two',
      'lines",Cairo,50,,',
    ].join("\n");
    const parsed = parseCsv(csv);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.cases[0]).toMatchObject({
      id: "rain",
      name: "Athens, rainy",
      inputs: { city: "Athens", stake: 100 },
      tags: ["won", "rain"],
    });
    expect(parsed.cases[1]).toMatchObject({
      id: "dry",
      name: "two\nlines",
      inputs: { city: "Cairo", stake: 50 },
      checks: [],
    });
    const again = parseCsv(toCsv(parsed.cases));
    expect(again).toEqual(parsed);
  });

  it("names line and field: bad JSON cell, unknown column, wrong field count, schema errors", () => {
    expect(parseCsv('id,checks\na,"[oops"')).toMatchObject({ ok: false, issues: [{ line: 2, field: "checks" }] });
    expect(parseCsv("id,colour\na,red")).toMatchObject({ ok: false, issues: [{ line: 1, field: "colour" }] });
    expect(parseCsv("id,name\na,b,c")).toMatchObject({ ok: false, issues: [{ line: 2, field: "" }] });
    expect(parseCsv("name\nx")).toMatchObject({ ok: false, issues: [{ line: 1, field: "id" }] });
    const schema = parseCsv('id,checks\nok,\n"",\nc,"[{""kind"":""numeric"",""name"":""n"",""expected"":""x""}]"');
    if (schema.ok) throw new Error("expected issues");
    expect(schema.issues.map(({ line, field }) => `${line}:${field}`)).toEqual(["3:id", "4:checks.0.expected"]);
    expect(parseCsv('id\n"never closed')).toMatchObject({ ok: false, issues: [{ line: 2 }] });
  });
});

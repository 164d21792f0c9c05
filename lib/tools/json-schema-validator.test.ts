import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { builtInTools } from "../services/built-in-tools";
import { compileArgumentValidator, createCompiledSchemaCache, toolSchemaCache } from "./json-schema-validator";

const citySchema = () => ({
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", default: "celsius" } },
  required: ["city"],
  additionalProperties: false,
});

describe("compiled schema cache", () => {
  it("compiles equal schemas once, whatever their key order or object identity", () => {
    const compiler = new Ajv({ strict: false });
    let compiles = 0;
    const cache = createCompiledSchemaCache({
      compile: (schema) => {
        compiles++;
        return compiler.compile(schema);
      },
      removeSchema: (schema) => compiler.removeSchema(schema),
    });
    const first = cache.compile(citySchema());
    const reordered = Object.fromEntries(Object.entries(citySchema()).reverse());
    expect(cache.compile(reordered)).toBe(first);
    expect(compiles).toBe(1);
    expect(cache.compile({ ...citySchema(), required: [] })).not.toBe(first);
    expect(compiles).toBe(2);
  });

  it("is bounded: beyond its size the least recently used schema leaves the cache and Ajv", () => {
    const compiler = new Ajv({ strict: false });
    const removed: unknown[] = [];
    const cache = createCompiledSchemaCache(
      { compile: (schema) => compiler.compile(schema), removeSchema: (schema) => removed.push(schema) },
      3,
    );
    const schema = (index: number) => ({ type: "object", properties: { [`field_${index}`]: { type: "number" } } });
    for (let index = 0; index < 3; index++) cache.compile(schema(index));
    cache.compile(schema(0)); // a hit makes schema 0 the most recently used
    cache.compile(schema(3));
    expect(cache.size).toBe(3);
    expect(removed).toEqual([schema(1)]);
    for (let index = 4; index < 50; index++) cache.compile(schema(index));
    expect(cache.size).toBe(3);
    expect(removed).toHaveLength(47);
  });

  it("keeps behaviour: validation, defaults on a copy, the caller's schema edits do not leak in", () => {
    const schema = citySchema();
    const validate = compileArgumentValidator("weather", schema);
    schema.required = []; // edited after compiling: the compiled validator is unaffected
    const args = { city: "Paris" };
    expect(validate(args)).toEqual({ ok: true, value: { city: "Paris", unit: "celsius" } });
    expect(args).toEqual({ city: "Paris" });
    expect(validate({})).toEqual({ ok: false, message: "arguments must have required property 'city'" });
    expect(validate({ city: "Paris", extra: 1 })).toMatchObject({
      ok: false,
      message: expect.stringContaining("extra"),
    });
    // The same content compiled again (a later run's fresh definition) validates the same way.
    expect(compileArgumentValidator("weather", citySchema())({})).toEqual(validate({}));
  });

  it("an invalid schema is still an invalid tool definition, and is not cached", () => {
    const before = toolSchemaCache.size;
    expect(() => compileArgumentValidator("broken", { type: "object", properties: { a: { type: "nope" } } })).toThrow(
      /invalid parameter schema/,
    );
    expect(toolSchemaCache.size).toBe(before);
  });

  it("building the built-in tools again for another run compiles nothing new", () => {
    const first = builtInTools();
    const size = toolSchemaCache.size;
    const second = builtInTools();
    expect(toolSchemaCache.size).toBe(size);
    expect(second.map((tool) => tool.name)).toEqual(first.map((tool) => tool.name));
    expect(second).not.toBe(first);
  });
});

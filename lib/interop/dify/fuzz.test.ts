import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ImportFileError, MAX_IMPORT_CHARACTERS } from "../errors";
import { importDifyWorkflow } from "./map-workflow";
import { fixtureNames, readFixture } from "./testing/fixtures";

/** Imports and returns the error, failing the test on anything but an ImportFileError (which the API answers with 4xx). */
function attempt(text: string): ImportFileError | undefined {
  try {
    importDifyWorkflow(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    expect(error.path).not.toBe("");
    expect(error.message.length).toBeGreaterThan(error.path.length);
    return error;
  }
}

const sources = fixtureNames().map(readFixture);

/** Sets `value` at a random path of a plain object tree. */
function mutate(root: unknown, steps: number[], value: unknown): unknown {
  if (typeof root !== "object" || root === null || steps.length === 0) return value;
  const keys = Object.keys(root);
  if (keys.length === 0) return value;
  const key = keys[steps[0]! % keys.length]!;
  const copy: Record<string, unknown> = Array.isArray(root)
    ? ([...root] as unknown as Record<string, unknown>)
    : { ...root };
  copy[key] = steps.length === 1 ? value : mutate((root as Record<string, unknown>)[key], steps.slice(1), value);
  return copy;
}

describe("fuzzed Dify files never escape as anything but a clear ImportFileError", () => {
  it("truncated files", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sources.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (index, cut) => {
          const text = sources[index]!;
          attempt(text.slice(0, Math.floor(text.length * cut)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("values of the wrong type anywhere", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sources.length - 1 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.oneof(
          fc.string(),
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
          fc.array(fc.string()),
          fc.dictionary(fc.string(), fc.string()),
        ),
        (index, steps, value) => {
          const mutated = mutate(parse(sources[index]!), steps, value);
          attempt(stringify(mutated));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("unknown node types become placeholders, never errors", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sources.length - 1 }),
        fc.nat(),
        fc.string({ minLength: 1 }),
        (index, which, type) => {
          const file = parse(sources[index]!) as { workflow: { graph: { nodes: { data: { type: string } }[] } } };
          const nodes = file.workflow.graph.nodes;
          const target = nodes[which % nodes.length]!;
          if (!target.data.type || ["start", "iteration", "iteration-start"].includes(target.data.type)) return;
          target.data.type = `x-${type}`;
          const result = importDifyWorkflow(stringify(file));
          const entry = result.report.nodes.find((item) => item.sourceType === `x-${type}`);
          expect(entry?.status).toBe("unsupported");
          expect(
            result.report.compile.issues.some(
              (issue) => issue.code === "unsupported_node" && issue.nodeId === entry?.nodeId,
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("names the path of a wrong envelope", () => {
    expect(attempt("kind: app\napp: {mode: chat, name: x}\nworkflow: {graph: {nodes: []}}")?.path).toBe("app.mode");
    expect(attempt("app: {mode: workflow}\nworkflow: {graph: {nodes: 3}}")?.path).toBe("workflow.graph.nodes");
    expect(attempt("app: {mode: workflow}\nworkflow: {graph: {nodes: [{id: a, data: {title: x}}]}}")?.path).toBe(
      "workflow.graph.nodes.0.data.type",
    );
    expect(attempt("kind: dataset\napp: {mode: workflow}\nworkflow: {graph: {nodes: []}}")?.path).toBe("kind");
    expect(attempt("- just\n- a list")?.path).toBe("(root)");
    expect(attempt("app: [unclosed")?.path).toMatch(/^line \d+, column \d+$/);
    expect(attempt("")?.code).toBe("invalid_import");
  });

  it("refuses a file over 10 MB with import_too_large", () => {
    const big = `${sources[0]}\n# ${"x".repeat(MAX_IMPORT_CHARACTERS)}`;
    expect(attempt(big)?.code).toBe("import_too_large");
  });

  it("refuses a billion-laughs alias bomb without expanding it", () => {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    const bomb = `${levels.join("\n")}\napp: {mode: workflow}\nworkflow: {graph: {nodes: []}}\n`;
    const started = Date.now();
    const error = attempt(bomb);
    expect(error?.message).toMatch(/alias/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import type { CompiledWorkflow } from "./compiled";
import type { WorkflowDocument } from "./document";
import { WORKFLOW_ISSUE_CODES, type WorkflowIssue } from "./issues";
import { getNodeDefinition } from "./nodes";
import { arbitraryMutatedWorkflowDocument, arbitraryWorkflowDocument } from "./testing/arbitraries";
import { upstreamNodeIds } from "./upstream-node-ids";
import { extractReferences, renderTemplate } from "./variables";
import { wouldCreateCycle } from "./would-create-cycle";

const KNOWN_CODES = new Set<string>(WORKFLOW_ISSUE_CODES);

function expectWellFormed(issue: WorkflowIssue): void {
  expect(KNOWN_CODES.has(issue.code)).toBe(true);
  expect(["error", "warning"]).toContain(issue.severity);
  expect(Array.isArray(issue.path)).toBe(true);
  for (const segment of issue.path) expect(["string", "number"]).toContain(typeof segment);
  expect(issue.message.length).toBeGreaterThan(0);
  expect(issue.code).not.toBe("internal_error");
}

/** Everything the engine relies on, re-derived from the compiled output alone. */
function expectStructurallyValid(workflow: CompiledWorkflow): void {
  const nodes = Object.values(workflow.nodes);
  expect(workflow.nodes[workflow.startNodeId]?.type).toBe("start");
  const scopeOf = new Map<string, string>();
  const position = new Map<string, number>();
  for (const scope of Object.values(workflow.scopes)) {
    expect(scope.nodeIds.length).toBeGreaterThan(0);
    scope.nodeIds.forEach((nodeId, index) => {
      expect(scopeOf.has(nodeId)).toBe(false);
      scopeOf.set(nodeId, scope.id);
      position.set(nodeId, index);
    });
    for (const entryId of scope.entryIds) expect(workflow.nodes[entryId].incoming).toEqual([]);
    expect(scope.entryIds).toEqual(scope.nodeIds.filter((nodeId) => workflow.nodes[nodeId].incoming.length === 0));
  }
  expect(workflow.scopes.root.entryIds).toEqual([workflow.startNodeId]);
  expect(scopeOf.size).toBe(nodes.length);
  for (const node of nodes) {
    const definition = getNodeDefinition(node.type);
    expect(definition).toBeDefined();
    expect(definition!.configSchema.safeParse(node.config).success).toBe(true);
    expect(scopeOf.get(node.id)).toBe(node.parentId ?? "root");
    if (definition!.isContainer) expect(workflow.scopes[node.id]).toBeDefined();
    if (node.parentId) expect(getNodeDefinition(workflow.nodes[node.parentId].type)?.isContainer).toBe(true);
    const ports = definition!.outputPorts(node.config).map((port) => port.id);
    for (const edge of node.outgoing) {
      expect(edge.source).toBe(node.id);
      expect(ports).toContain(edge.sourceHandle);
      expect(edge.targetHandle).toBe("in");
      const target = workflow.nodes[edge.target];
      expect(target.incoming).toContainEqual(edge);
      expect(target.parentId).toBe(node.parentId);
      expect(position.get(edge.source)!).toBeLessThan(position.get(edge.target)!);
    }
  }
}

describe("compileWorkflow properties", () => {
  it("compiles every generated workflow without errors", () => {
    fc.assert(
      fc.property(arbitraryWorkflowDocument(), (document) => {
        const result = compileWorkflow(document);
        if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 1));
        expect(result.warnings).toEqual([]);
        expectStructurallyValid(result.workflow);
      }),
      { numRuns: 400 },
    );
  });

  it("never throws on mutated documents; rejections are well formed, acceptances structurally valid", () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(arbitraryMutatedWorkflowDocument(), (document) => {
        const result = compileWorkflow(document);
        if (result.ok) {
          accepted++;
          expectStructurallyValid(result.workflow);
          for (const warning of result.warnings) expectWellFormed(warning);
        } else {
          rejected++;
          expect(result.issues.length).toBeGreaterThan(0);
          expect(result.issues.some((issue) => issue.severity === "error")).toBe(true);
          for (const issue of result.issues) expectWellFormed(issue);
        }
      }),
      { numRuns: 1000 },
    );
    // Both outcomes must actually be exercised, or the property proves little.
    expect(accepted).toBeGreaterThan(10);
    expect(rejected).toBeGreaterThan(500);
  });

  it("never throws on arbitrary values, and points node issues at existing nodes", () => {
    const documentShaped = fc.record({
      schemaVersion: fc.oneof(fc.constant(2), fc.constant(1), fc.integer()),
      nodes: fc.array(
        fc.record({
          id: fc.oneof(fc.constantFrom("a", "b", "start", "item"), fc.string()),
          type: fc.oneof(fc.constantFrom("start", "end", "llm", "iteration", "condition", "answer"), fc.string()),
          position: fc.record({ x: fc.integer(), y: fc.integer() }),
          parentId: fc.option(fc.constantFrom("a", "b", "x"), { nil: undefined }),
          data: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })).map((data) => ({ ...data, title: "t" })),
        }),
        { maxLength: 6 },
      ),
      edges: fc.array(
        fc.record({
          id: fc.string({ minLength: 1 }),
          source: fc.constantFrom("a", "b", "start", "zz"),
          target: fc.constantFrom("a", "b", "start", "zz"),
          sourceHandle: fc.option(fc.constantFrom("out", "else", "fail", "x"), { nil: undefined }),
        }),
        { maxLength: 6 },
      ),
    });
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), documentShaped), (input) => {
        const result = compileWorkflow(input);
        const issues = result.ok ? result.warnings : result.issues;
        if (!result.ok) expect(issues.length).toBeGreaterThan(0);
        const ids = new Set(
          typeof input === "object" && input !== null && Array.isArray((input as WorkflowDocument).nodes)
            ? (input as WorkflowDocument).nodes.map((node) => node?.id)
            : [],
        );
        for (const issue of issues) {
          expectWellFormed(issue);
          if (issue.nodeId !== undefined) expect(ids.has(issue.nodeId)).toBe(true);
        }
      }),
      { numRuns: 600 },
    );
  });

  it("accepts only references to nodes the canvas helper lists as upstream", () => {
    fc.assert(
      fc.property(arbitraryWorkflowDocument(), (document) => {
        expect(compileWorkflow(document).ok).toBe(true);
        for (const node of document.nodes) {
          const upstream = new Set(upstreamNodeIds(document, node.id));
          for (const value of Object.values(node.data)) {
            const templates = JSON.stringify(value).match(/\{\{[^{}]*\}\}/g) ?? [];
            for (const reference of templates.flatMap((template) => extractReferences(template))) {
              if (reference.kind === "node") expect(upstream.has(reference.root)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("wouldCreateCycle agrees with the compiler's cycle check", () => {
    fc.assert(
      fc.property(
        arbitraryWorkflowDocument({ nodeTypes: ["template", "code", "llm"] }),
        fc.nat(),
        fc.nat(),
        (document, sourcePick, targetPick) => {
          const topLevel = document.nodes.filter((node) => node.parentId === undefined && node.type !== "end");
          const source = topLevel[sourcePick % topLevel.length];
          const target = topLevel[targetPick % topLevel.length];
          if (target.type === "start") return;
          const withEdge = {
            ...document,
            edges: [...document.edges, { id: "probe", source: source.id, target: target.id }],
          };
          const result = compileWorkflow(withEdge);
          const hasCycle = !result.ok && result.issues.some((issue) => issue.code === "cycle");
          expect(wouldCreateCycle(document, source.id, target.id)).toBe(hasCycle);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("renderTemplate properties", () => {
  const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/);
  it("matches a naive renderer for random scopes and templates", () => {
    fc.assert(
      fc.property(
        fc.dictionary(segment, fc.dictionary(segment, fc.oneof(fc.string(), fc.integer(), fc.boolean()))),
        fc.array(
          fc.oneof(
            fc.string().filter((text) => !text.includes("{") && !text.includes("}")),
            fc.tuple(segment, segment),
          ),
          {
            maxLength: 6,
          },
        ),
        (scope, parts) => {
          const template = parts
            .map((part) => (typeof part === "string" ? part : `{{ ${part[0]}.${part[1]} }}`))
            .join("");
          const expected = parts
            .map((part) => {
              if (typeof part === "string") return part;
              const holder = Object.hasOwn(scope, part[0]) ? scope[part[0]] : undefined;
              const value = holder && Object.hasOwn(holder, part[1]) ? holder[part[1]] : undefined;
              return value === undefined ? "" : String(value);
            })
            .join("");
          expect(renderTemplate(template, scope)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

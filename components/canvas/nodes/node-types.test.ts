import { ReactFlowProvider } from "@xyflow/react";
import { type ComponentProps, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { NODE_TYPES } from "@/lib/workflow/node-definition";
import { getNodeDefinition } from "@/lib/workflow/nodes";
import { EditorStoreProvider } from "../store/editor-store-context";
import type { CanvasNodeData } from "../store/types";
import { hostOf } from "./node-formatting";
import { nodeTypes } from "./node-types";
import { nodeViewOf } from "./use-node-view";

const MEMO_TYPE = Symbol.for("react.memo");

/** Server-renders one node component the way React Flow would call it (handles need React Flow's node context, so they are left out). */
function renderNode(type: string, config: Record<string, unknown>, title = "Node"): string {
  const component = nodeTypes[type];
  const data: CanvasNodeData = {
    ...(getNodeDefinition(type)?.defaults() as Record<string, unknown>),
    ...config,
    title,
  };
  const nodeProps = {
    id: `${type}_1`,
    type,
    data,
    selected: false,
    dragging: false,
    draggable: true,
    selectable: true,
    deletable: true,
    isConnectable: true,
    zIndex: 0,
    positionAbsoluteX: 0,
    positionAbsoluteY: 0,
  };
  const init = {
    workflowId: "workflow_a",
    workflowName: "Test",
    revision: 1,
    publishedVersion: null,
    document: { schemaVersion: 2, nodes: [], edges: [] } as WorkflowDocument,
  };
  const node = createElement(ReactFlowProvider, null, createElement(component, nodeProps));
  // The provider's props type requires `children`; createElement passes them as its third argument.
  const providerProps = { init } as ComponentProps<typeof EditorStoreProvider>;
  return renderToStaticMarkup(createElement(EditorStoreProvider, providerProps, node));
}

describe("nodeTypes", () => {
  it("has one memoized component per node type, plus sticky notes, and nothing else", () => {
    expect(Object.keys(nodeTypes).sort()).toEqual([...NODE_TYPES, "note"].sort());
    for (const type of [...NODE_TYPES, "note"]) {
      expect((nodeTypes[type] as unknown as { $$typeof: symbol }).$$typeof, type).toBe(MEMO_TYPE);
    }
  });

  it("gives every type except the container its own component", () => {
    const components = new Set(Object.values(nodeTypes));
    expect(components.size).toBe(NODE_TYPES.length + 1);
  });

  it.each(NODE_TYPES.filter((type) => type !== "iteration"))("renders %s with its defaults", (type) => {
    const html = renderNode(type, {}, `My ${type}`);
    expect(html).toContain(`data-testid="node-${type}"`);
    expect(html).toContain(`My ${type}`);
  });
});

describe("sticky notes and pins", () => {
  it("renders a note's Markdown as elements and its HTML as text", () => {
    const html = renderNode("note", { text: "**bold** <script>alert(1)</script>", color: "pink" });
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain('data-color="pink"');
  });

  it("marks a pinned node on its card", () => {
    expect(renderNode("template", { pin: { outputs: { text: "x" }, source: "mock" } })).toContain(
      'data-testid="node-pinned"',
    );
    expect(renderNode("template", {})).not.toContain("node-pinned");
  });
});

describe("per-type details", () => {
  it("condition lists one labelled port per case plus else", () => {
    const html = renderNode("condition", {
      cases: [
        { id: "case-1", label: "Is urgent", logic: "and", conditions: [] },
        { id: "case-2", label: "", logic: "and", conditions: [] },
      ],
    });
    expect(html).toContain('data-testid="port-case-1"');
    expect(html).toContain("Is urgent");
    expect(html).toContain('data-testid="port-case-2"');
    expect(html).toContain("Else if 1");
    expect(html).toContain('data-testid="port-else"');
  });

  it("start lists its inputs and end its outputs", () => {
    const start = renderNode("start", {
      inputs: [
        { name: "question", type: "string", required: true },
        { name: "language", type: "string", required: false },
      ],
    });
    expect(start).toMatch(/data-testid="node-inputs".*question.*language/);
    const end = renderNode("end", { outputs: [{ name: "answer", value: "{{llm_1.text}}" }] });
    expect(end).toMatch(/data-testid="node-outputs".*answer/);
  });

  it("AI nodes show their model; the agent its mode and tool count", () => {
    expect(renderNode("llm", { model: { provider: "openai", model: "gpt-4.1" } })).toContain("gpt-4.1");
    const agent = renderNode("agent", { mode: "react", tools: ["web_search", "calculator"] });
    expect(agent).toContain('data-testid="node-agent-mode"');
    expect(agent).toMatch(/react · 2 tools/);
    expect(renderNode("planner", { tools: ["calculator"] })).toMatch(/1 tool</);
    expect(renderNode("synthesizer", {})).toContain('data-testid="node-model"');
  });

  it("tool shows the tool name or the template choosing it", () => {
    expect(renderNode("tool", { tool: "get_current_weather" })).toContain("get_current_weather");
    const templated = renderNode("tool", { tool: "{{item.tool}}" });
    expect(templated).toContain("Tool from");
    expect(templated).toContain("{{item.tool}}");
  });

  it("http shows the method and host; human input its fields count", () => {
    expect(renderNode("http", { method: "POST", url: "https://api.example.com/v1/items?x=1" })).toMatch(
      /POST<\/span><span [^>]*>api\.example\.com</,
    );
    expect(
      renderNode("human-input", {
        fields: [
          { name: "approve", label: "Approve", type: "boolean", required: true },
          { name: "note", label: "Note", type: "text", required: false },
        ],
      }),
    ).toContain("2 fields");
  });
});

describe("hostOf", () => {
  it("returns the host of absolute URLs and the text before the path otherwise", () => {
    expect(hostOf("https://api.example.com:8443/v1?q=1")).toBe("api.example.com:8443");
    expect(hostOf("{{start.base}}/items")).toBe("{{start.base}}");
    expect(hostOf("http://{{env.HOST}}/x")).toBe("{{env.HOST}}");
    expect(hostOf("example.com/path")).toBe("example.com");
    expect(hostOf("  ")).toBe("");
  });
});

describe("nodeViewOf", () => {
  it("parses a node's data once: the canvas's size estimate and the card share the view", () => {
    const data: CanvasNodeData = { title: "Route", ...(getNodeDefinition("condition")?.defaults() as object) };
    const view = nodeViewOf("condition", data);
    expect(nodeViewOf("condition", data)).toBe(view);
    expect(nodeViewOf("condition", { ...data })).not.toBe(view);
    expect(nodeViewOf("template", data)).not.toBe(view);
    expect(view.ports.map((port) => port.id)).toContain("else");
  });
});

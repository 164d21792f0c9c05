import { NODE_TYPES, type NodeCategory, type NodeDefinition } from "@/lib/workflow/node-definition";
import { getNodeDefinition as getDefinitionFromWorkflow } from "@/lib/workflow/nodes";

/** Palette order and labels of the categories. */
export const NODE_CATEGORIES: { id: NodeCategory; label: string }[] = [
  { id: "flow", label: "Flow" },
  { id: "ai", label: "AI" },
  { id: "logic", label: "Logic" },
  { id: "tools", label: "Tools" },
  { id: "human", label: "Human" },
];

/** The definition of a node type, or undefined for a type this build does not know. */
export function findNodeDefinition(type: string | undefined): NodeDefinition | undefined {
  if (!type) return undefined;
  return getDefinitionFromWorkflow(type);
}

let cachedDefinitions: NodeDefinition[] | null = null;

/** Every known definition in NODE_TYPES order (computed once). */
export function listNodeDefinitions(): NodeDefinition[] {
  if (!cachedDefinitions) {
    cachedDefinitions = NODE_TYPES.map((type) => findNodeDefinition(type)).filter(
      (definition): definition is NodeDefinition => definition !== undefined,
    );
  }
  return cachedDefinitions;
}

/**
 * Short text glyphs per type.
 * @deprecated Use `NodeTypeIcon` / `nodeTypeStyle` from components/ui/node-type-style.tsx (one icon and one
 * colour per type); kept only until no caller is left.
 */
export const NODE_ICONS: Record<string, string> = {
  start: "▶",
  end: "■",
  llm: "AI",
  agent: "Ag",
  planner: "Pl",
  iteration: "⟳",
  tool: "Tl",
  synthesizer: "Sy",
  condition: "if",
  http: "H",
  code: "{}",
  template: "T",
  "human-input": "?",
};

import type { NodeTypes } from "@xyflow/react";
import { NODE_TYPES } from "@/lib/workflow/node-definition";
import { IterationNode } from "./iteration-node";
import { WorkflowNode } from "./workflow-node";

/**
 * Module-scope map from workflow type to component: React Flow remounts every node when this
 * object changes identity, so it must never be rebuilt during render.
 */
export const nodeTypes: NodeTypes = Object.fromEntries(
  NODE_TYPES.map((type) => [type, type === "iteration" ? IterationNode : WorkflowNode]),
);

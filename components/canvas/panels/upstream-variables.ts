import { availableVariables, bodyOutputVariables } from "@/lib/workflow/available-variables";
import { graphToDocument } from "../store/document-conversion";
import type { CanvasEdge, CanvasNode } from "../store/types";

/** One variable a field may reference. */
export interface VariableOption {
  /** Text between the braces, e.g. `planner_1.steps`. */
  reference: string;
  /** Selector form, e.g. `["planner_1", "steps"]`. */
  selector: string[];
  /** Title of the node that produces it. */
  nodeTitle: string;
  /** Value type for display. */
  type: string;
  /** Help text. */
  description?: string;
}

function toOption(variable: ReturnType<typeof availableVariables>[number]): VariableOption {
  return {
    reference: variable.reference.replace(/^\{\{\s*|\s*\}\}$/g, ""),
    selector: variable.selector,
    nodeTitle: variable.nodeTitle,
    type: variable.type,
    description: variable.description,
  };
}

/** Variables visible to a node (upstream outputs; `item`/`index` inside an iteration), from lib/workflow. */
export function upstreamVariables(nodeId: string, nodes: CanvasNode[], edges: CanvasEdge[]): VariableOption[] {
  return availableVariables(graphToDocument(nodes, edges), nodeId).map(toOption);
}

/** Outputs of the nodes inside a container, for its output selector. */
export function bodyVariables(containerId: string, nodes: CanvasNode[]): VariableOption[] {
  return bodyOutputVariables(graphToDocument(nodes, []), containerId).map(toOption);
}

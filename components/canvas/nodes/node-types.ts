import type { NodeProps, NodeTypes } from "@xyflow/react";
import type { ComponentType } from "react";
import type { NodeType } from "@/lib/workflow/node-definition";
import { NoteNode } from "../notes/note-node";
import { NOTE_TYPE } from "../store/document-conversion";
import type { CanvasNode } from "../store/types";
import { AgentNode } from "./agent-node";
import { CodeNode } from "./code-node";
import { ConditionNode } from "./condition-node";
import { EndNode } from "./end-node";
import { HttpNode } from "./http-node";
import { HumanInputNode } from "./human-input-node";
import { IterationNode } from "./iteration-node";
import { LlmNode } from "./llm-node";
import { PlannerNode } from "./planner-node";
import { StartNode } from "./start-node";
import { SynthesizerNode } from "./synthesizer-node";
import { TemplateNode } from "./template-node";
import { ToolNode } from "./tool-node";

/** One component per workflow node type; the `Record` makes a missing type a compile error. */
const componentsByType: Record<NodeType, ComponentType<NodeProps<CanvasNode>>> = {
  start: StartNode,
  end: EndNode,
  llm: LlmNode,
  agent: AgentNode,
  planner: PlannerNode,
  iteration: IterationNode,
  tool: ToolNode,
  synthesizer: SynthesizerNode,
  condition: ConditionNode,
  http: HttpNode,
  code: CodeNode,
  template: TemplateNode,
  "human-input": HumanInputNode,
};

/**
 * Module-scope map from workflow type to component: React Flow remounts every node when this
 * object changes identity, so it must never be rebuilt during render.
 */
export const nodeTypes: NodeTypes = { ...componentsByType, [NOTE_TYPE]: NoteNode } as NodeTypes;

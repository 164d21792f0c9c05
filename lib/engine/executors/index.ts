import "server-only";
import type { NodeType } from "../../workflow/node-definition";
import type { NodeExecutor } from "../executor";
import { agentExecutor } from "./agent";
import { codeExecutor } from "./code";
import { conditionExecutor } from "./condition";
import { endExecutor } from "./end";
import { httpExecutor } from "./http";
import { humanInputExecutor } from "./human-input";
import { iterationExecutor } from "./iteration";
import { llmExecutor } from "./llm";
import { plannerExecutor } from "./planner";
import { startExecutor } from "./start";
import { synthesizerExecutor } from "./synthesizer";
import { templateExecutor } from "./template";
import { toolExecutor } from "./tool";

/** The executor of every node type. A missing type is a compile error here, not a run-time surprise. */
export const defaultExecutors: Readonly<Record<NodeType, NodeExecutor>> = Object.freeze({
  start: startExecutor,
  end: endExecutor,
  llm: llmExecutor,
  agent: agentExecutor,
  planner: plannerExecutor,
  iteration: iterationExecutor,
  tool: toolExecutor,
  synthesizer: synthesizerExecutor,
  condition: conditionExecutor,
  http: httpExecutor,
  code: codeExecutor,
  template: templateExecutor,
  "human-input": humanInputExecutor,
});

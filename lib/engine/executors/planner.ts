import "server-only";
import { runPlanner } from "../../agent/run-planner";
import { toolsFromRegistry } from "../../agent/tool-set";
import type { PlannerConfig } from "../../workflow/nodes/planner";
import type { NodeExecutor } from "../executor";
import { resolveNodeModel, toEngineUsage, toNodeExecutionError } from "./model-node-support";
import { toolsForNode } from "./node-tools";

/**
 * The planner node of the graph form of Plan-and-Execute: asks the model for JSON steps,
 * validated against the node's tool allowlist (one repair request on an invalid plan, then an
 * `invalid_plan` error). Pair it with an iteration over `steps`; when an item fails, the
 * iteration executor replans through `replanAfterFailure` from lib/agent/graph-replan.
 */
export const plannerExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as PlannerConfig;
  const model = await resolveNodeModel(context, config.model);
  const instructions = context.render(config.instructions);
  const goal = context.render(config.goal);
  try {
    const tools = toolsFromRegistry(await toolsForNode(context, config.tools), config.tools);
    const planned = await runPlanner({
      model,
      instructions,
      goal,
      tools,
      maxSteps: config.maxSteps,
      signal: context.signal,
    });
    return {
      outputs: { steps: planned.steps },
      inputs: { instructions, goal },
      processData: {
        messages: planned.messages,
        repaired: planned.repaired,
        maxReplans: config.maxReplans,
        isDemo: planned.isDemo,
      },
      usage: toEngineUsage(planned.usage),
    };
  } catch (error) {
    throw toNodeExecutionError(error, { goal, isDemo: model.isDemo }, { retryableCodes: ["invalid_plan"] });
  }
};

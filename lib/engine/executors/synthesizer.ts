import "server-only";
import { runSynthesizer } from "../../agent/synthesizer";
import type { SynthesizerConfig } from "../../workflow/nodes/synthesizer";
import type { NodeExecutor } from "../executor";
import { replySink, resolveNodeModel, toEngineUsage, toNodeExecutionError } from "./model-node-support";

/**
 * Writes one answer from several upstream results (the last node of the graph form of
 * Plan-and-Execute). The selected inputs go to the model as JSON, labelled by their selector;
 * text streams as node-delta events unless nobody reads them (`ExecutorContext.textDeltas`).
 */
export const synthesizerExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as SynthesizerConfig;
  const model = await resolveNodeModel(context, config.model);
  const task = context.render(config.prompt);
  const results = config.inputs.map((selector) => ({ from: selector.join("."), value: context.select(selector) }));
  try {
    const synthesized = await runSynthesizer({
      model,
      task,
      results,
      signal: context.signal,
      emit: replySink(context),
    });
    return {
      outputs: { text: synthesized.text },
      inputs: { prompt: task, inputs: results },
      processData: { messages: synthesized.messages, isDemo: synthesized.isDemo },
      usage: toEngineUsage(synthesized.usage),
    };
  } catch (error) {
    throw toNodeExecutionError(error, { prompt: task, isDemo: model.isDemo });
  }
};

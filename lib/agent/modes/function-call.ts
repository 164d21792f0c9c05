import "server-only";
import type { ModelRequest } from "../../llm/language-model";
import { toolAwareRouter } from "../delta-router";
import type { ModeDriver } from "../loop";
import { finalFromNativeText, normalizeCallIds } from "./shared";

/**
 * Native tool calling (`tool_calls`). All calls of one turn are independent by construction (the
 * model issued them without seeing each other's results), so they run in parallel; each result
 * goes back as a tool message with the matching `tool_call_id`. On a forced turn the tools are
 * withheld from the request, so the model has to answer.
 */
export function functionCallDriver(): ModeDriver {
  return {
    mode: "function_call",
    start(run) {
      if (run.instructions.trim()) run.messages.push({ role: "system", content: run.instructions });
      run.messages.push({ role: "user", content: run.query });
    },
    async turn(run) {
      const withhold = run.forcedReason !== undefined || run.tools.size === 0;
      if (run.forcedNote) run.messages.push({ role: "user", content: run.forcedNote });
      const request: ModelRequest = { messages: [...run.messages], toolProtocol: "tools" };
      if (!withhold) {
        request.tools = run.tools.toModelTools();
        request.toolChoice = "auto";
        if (run.model.profile.parallelToolCalls) request.parallelToolCalls = true;
      }
      const response = await run.callModel(request, { router: toolAwareRouter() });
      if (response.toolCalls.length === 0) {
        run.messages.push({ role: "assistant", content: response.text });
        return finalFromNativeText(response.text);
      }
      const calls = normalizeCallIds(response.toolCalls, run.iteration);
      run.messages.push({ role: "assistant", content: response.text, toolCalls: calls });
      return {
        type: "act",
        thought: response.text.trim(),
        calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
        parallel: true,
      };
    },
    observe(run, _decision, outcomes) {
      for (const outcome of outcomes) {
        run.messages.push({ role: "tool", toolCallId: outcome.call.id, content: outcome.observation });
      }
    },
  };
}

import "server-only";
import type { ModelRequest } from "../../llm/language-model";
import { toolAwareRouter } from "../delta-router";
import type { ModeDriver } from "../loop";
import { finalFromNativeText } from "./shared";

/**
 * The deprecated `functions` / `function_call` protocol, for servers that only speak it: one call
 * per turn, answered with a `function` message named after the function.
 */
export function functionCallLegacyDriver(): ModeDriver {
  return {
    mode: "function_call_legacy",
    start(run) {
      if (run.instructions.trim()) run.messages.push({ role: "system", content: run.instructions });
      run.messages.push({ role: "user", content: run.query });
    },
    async turn(run) {
      const withhold = run.forcedReason !== undefined || run.tools.size === 0;
      if (run.forcedNote) run.messages.push({ role: "user", content: run.forcedNote });
      const request: ModelRequest = { messages: [...run.messages], toolProtocol: "functions" };
      if (!withhold) request.tools = run.tools.toModelTools();
      const response = await run.callModel(request, { router: toolAwareRouter() });
      const call = response.toolCalls[0];
      if (!call) {
        run.messages.push({ role: "assistant", content: response.text });
        return finalFromNativeText(response.text);
      }
      run.messages.push({
        role: "assistant",
        content: response.text,
        functionCall: { name: call.name, arguments: call.arguments },
      });
      const id = call.id || `function_${run.iteration}`;
      return {
        type: "act",
        thought: response.text.trim(),
        calls: [{ id, name: call.name, arguments: call.arguments }],
        parallel: false,
      };
    },
    observe(run, _decision, outcomes) {
      for (const outcome of outcomes) {
        // The function message is named as the model wrote the call, so the exchange stays consistent.
        run.messages.push({ role: "function", name: outcome.call.name, content: outcome.observation });
      }
    },
  };
}

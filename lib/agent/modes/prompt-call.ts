import "server-only";
import { promptCallRouter } from "../delta-router";
import type { ModeDriver } from "../loop";
import { parsePromptCallOutput } from "../parsers/prompt-call-parser";
import {
  buildPromptCallSystemPrompt,
  formatToolResponse,
  promptCallForcedAnswerNote,
} from "../prompts/prompt-call-prompt";
import { finalFromText } from "./shared";

/**
 * FastGPT's prompt-call protocol: the model replies `0: answer` or `1: {"toolId", "arguments"}`.
 * A malformed `1:` reply is refused with an error observation so the model can fix it.
 */
export function promptCallDriver(): ModeDriver {
  return {
    mode: "prompt_call",
    start(run) {
      run.messages.push({ role: "system", content: buildPromptCallSystemPrompt(run.instructions, run.tools.specs) });
      run.messages.push({ role: "user", content: run.query });
    },
    async turn(run) {
      if (run.forcedNote) run.messages.push({ role: "user", content: promptCallForcedAnswerNote(run.forcedNote) });
      const response = await run.callModel({ messages: [...run.messages] }, { router: promptCallRouter() });
      run.messages.push({ role: "assistant", content: response.text });
      const parsed = parsePromptCallOutput(response.text);
      const id = `prompt_call_${run.iteration}`;
      if (parsed.type === "answer") return finalFromText(parsed.text, undefined, parsed.parseFailed);
      if (parsed.type === "invalid_call") {
        return {
          type: "act",
          thought: "",
          calls: [
            {
              id,
              name: "(unparsed)",
              arguments: parsed.raw,
              rejection: {
                error: { code: "invalid_tool_call", message: parsed.message, retryable: false },
                hint: parsed.message,
              },
            },
          ],
          parallel: false,
        };
      }
      return {
        type: "act",
        thought: "",
        calls: [{ id, name: parsed.toolId, arguments: parsed.arguments }],
        parallel: false,
      };
    },
    observe(run, _decision, outcomes) {
      for (const outcome of outcomes)
        run.messages.push({ role: "user", content: formatToolResponse(outcome.observation) });
    },
  };
}

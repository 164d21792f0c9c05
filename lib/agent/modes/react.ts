import "server-only";
import { markerRouter } from "../delta-router";
import type { ModeDriver } from "../loop";
import { cutAtObservation, OBSERVATION_STOP_SEQUENCES, parseReactOutput } from "../parsers/react-parser";
import { buildReactSystemPrompt, formatReactObservation, reactForcedAnswerNote } from "../prompts/react-prompt";
import { finalFromText } from "./shared";

const FINAL_MARKER = /(Final[ _]Answer|最终答案)[ \t]*[:：][ \t]*/i;
const OBSERVATION_MARKER = /(^|\n)[ \t]*(?:\*\*)?(Observation|观察)(?:\*\*)?[ \t]*[:：]/i;

/**
 * ReAct over plain text: the tool list and format live in the system prompt, the model stops
 * before "Observation:" and the system appends the real result. When the provider ignores stop
 * sequences (profile.stopSequences false) the text is cut at the first Observation marker
 * instead. Thoughts stream live as `thought` deltas, the final answer as `text`.
 */
export function reactDriver(): ModeDriver {
  return {
    mode: "react",
    start(run) {
      run.messages.push({ role: "system", content: buildReactSystemPrompt(run.instructions, run.tools.specs) });
      run.messages.push({ role: "user", content: run.query });
    },
    async turn(run) {
      if (run.forcedNote) run.messages.push({ role: "user", content: reactForcedAnswerNote(run.forcedNote) });
      const stop = run.model.profile.stopSequences ? [...OBSERVATION_STOP_SEQUENCES] : undefined;
      const response = await run.callModel(
        { messages: [...run.messages], ...(stop ? { stop } : {}) },
        { router: markerRouter({ switchMarker: FINAL_MARKER, stopMarker: OBSERVATION_MARKER }) },
      );
      const text = cutAtObservation(response.text).trimEnd();
      run.messages.push({ role: "assistant", content: text });
      const parsed = parseReactOutput(text);
      if (parsed.type === "final") return finalFromText(parsed.answer, parsed.thought, parsed.parseFailed);
      return {
        type: "act",
        thought: parsed.thought,
        calls: [{ id: `react_${run.iteration}`, name: parsed.action, arguments: parsed.input }],
        parallel: false,
      };
    },
    observe(run, _decision, outcomes) {
      for (const outcome of outcomes) {
        run.messages.push({ role: "user", content: formatReactObservation(outcome.observation) });
      }
    },
  };
}

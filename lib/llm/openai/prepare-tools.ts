import "server-only";
import type {
  ChatCompletionCreateParams,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ModelProfile, ModelRequest } from "../language-model";

/** Tool fields of the request body, and what had to be dropped on the way. */
export interface PreparedTools {
  /** Native tools. */
  tools?: ChatCompletionFunctionTool[];
  /** Native tool choice. */
  tool_choice?: ChatCompletionToolChoiceOption;
  /** Sent only when the profile supports parallel tool calls. */
  parallel_tool_calls?: boolean;
  /** Legacy functions. */
  functions?: ChatCompletionCreateParams.Function[];
  /** Legacy function choice. */
  function_call?: "auto" | "none" | { name: string };
  /** What was dropped or changed, for `ModelResponse.warnings`. */
  warnings: string[];
}

/**
 * Turns the request's tools into either native `tools`/`tool_choice` or legacy
 * `functions`/`function_call`. `parallel_tool_calls` is sent only when the profile says the
 * model supports it, because several servers reject the field outright.
 */
export function prepareTools(request: ModelRequest, profile: ModelProfile): PreparedTools {
  const warnings: string[] = [];
  const tools = request.tools ?? [];
  if (tools.length === 0) return { warnings };

  if (request.toolProtocol === "functions") {
    if (!profile.legacyFunctions)
      warnings.push("The model profile does not list legacy functions support; sending them anyway.");
    let functionCall: PreparedTools["function_call"];
    const choice = request.toolChoice;
    if (choice === "none" || choice === "auto") functionCall = choice;
    else if (typeof choice === "object") functionCall = { name: choice.name };
    else if (choice === "required") {
      // The legacy API cannot force "some function"; with one function we can name it.
      if (tools.length === 1) functionCall = { name: tools[0].name };
      else warnings.push('toolChoice "required" has no legacy functions equivalent; using "auto".');
    }
    return {
      functions: tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
      ...(functionCall ? { function_call: functionCall } : {}),
      warnings,
    };
  }

  if (!profile.toolCalls)
    warnings.push("The model profile does not list native tool calls support; sending tools anyway.");
  let toolChoice: ChatCompletionToolChoiceOption | undefined;
  const choice = request.toolChoice;
  if (typeof choice === "object") toolChoice = { type: "function", function: { name: choice.name } };
  else if (choice) toolChoice = choice;
  let parallel: boolean | undefined;
  if (request.parallelToolCalls !== undefined) {
    if (profile.parallelToolCalls) parallel = request.parallelToolCalls;
    else if (request.parallelToolCalls)
      warnings.push("The model profile does not support parallel tool calls; parallel_tool_calls not sent.");
  }
  return {
    tools: tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(parallel !== undefined ? { parallel_tool_calls: parallel } : {}),
    warnings,
  };
}

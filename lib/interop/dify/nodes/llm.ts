import { z } from "zod";
import type { MapContext, NodeMapper } from "../context";
import { convertJinja } from "../jinja";
import { templateOf } from "../references";
import { mapModel, modelConfigSchema, readData, trellisNode, variableSelectorSchema } from "./shared";

/** LLMNodeChatModelMessage / completion template (nodes/llm/entities.py). */
const messageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant"]).default("user"),
  text: z.string().default(""),
  edition_type: z.string().nullish(),
  jinja2_text: z.string().nullish(),
});

const llmDataSchema = z.looseObject({
  model: modelConfigSchema,
  prompt_template: z.union([
    z.array(messageSchema),
    z.looseObject({
      text: z.string().default(""),
      edition_type: z.string().nullish(),
      jinja2_text: z.string().nullish(),
    }),
  ]),
  prompt_config: z.looseObject({ jinja2_variables: z.array(variableSelectorSchema).nullish() }).nullish(),
  context: z
    .looseObject({ enabled: z.boolean().default(false), variable_selector: z.array(z.string()).nullish() })
    .nullish(),
  memory: z.looseObject({ query_prompt_template: z.string().nullish() }).nullish().catch(null),
  vision: z.looseObject({ enabled: z.boolean().default(false) }).nullish(),
  structured_output: z.looseObject({ schema: z.record(z.string(), z.unknown()).optional() }).nullish(),
  structured_output_enabled: z.boolean().nullish(),
  /** Dify's default, for apps made before the field, is `tagged`: the reply as the model wrote it. */
  reasoning_format: z.enum(["separated", "tagged"]).nullish().catch(null),
});

type LlmData = z.output<typeof llmDataSchema>;

function messageText(
  message: { text: string; edition_type?: string | null; jinja2_text?: string | null },
  data: LlmData,
  context: MapContext,
): string {
  const contextSelector = data.context?.enabled ? data.context.variable_selector : undefined;
  if (message.edition_type === "jinja2" && message.jinja2_text) {
    const variables = new Map(
      (data.prompt_config?.jinja2_variables ?? []).map((variable) => [
        variable.variable,
        context.selector(variable.value_selector),
      ]),
    );
    const converted = convertJinja(message.jinja2_text, variables);
    for (const change of converted.changes) context.change(change);
    if (converted.unsupported) context.change(`${converted.unsupported}; the prompt keeps the Jinja2 text as written`);
    return converted.template;
  }
  let text = message.text;
  if (text.includes("{{#context#}}")) {
    if (contextSelector && contextSelector.length > 0) {
      text = text.replaceAll("{{#context#}}", templateOf(context.selector(contextSelector)));
    } else {
      text = text.replaceAll("{{#context#}}", "");
      context.change("{{#context#}} was removed: the node's context is off");
    }
  }
  return context.template(text);
}

/** Dify's references to the uploaded files, which no Trellis input carries. */
const FILE_REFERENCES = /\{\{#(?:sys|userinput)\.files#\}\}/g;

/**
 * The user's message of a chatflow LLM with memory: Dify sends it after the prompt messages (and
 * the history) as one more user message, `memory.query_prompt_template` rendered (default
 * `{{#sys.query#}}`); without memory, or in a workflow app (no `sys.query`), none is sent.
 */
function chatQuery(data: LlmData, context: MapContext): string | undefined {
  if (!data.memory || context.appMode !== "advanced-chat") return undefined;
  const raw = data.memory.query_prompt_template?.trim() || "{{#sys.query#}}";
  const withoutFiles = raw.replace(FILE_REFERENCES, "").trim();
  if (withoutFiles !== raw)
    context.change("Uploaded files are not passed to the model (the files reference was left out)");
  context.change(
    "Conversation memory is not kept between runs: the chat message ends the user prompt, without history",
  );
  return withoutFiles === "" ? undefined : context.template(withoutFiles);
}

/** llm: model, prompt messages by role, context, structured output, the chatflow's message; memory and vision are off. */
export const llmMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(llmDataSchema, node, context);
    const { model, temperature, maxTokens, reasoningEffort } = mapModel(data.model, context);
    const system: string[] = [];
    const user: string[] = [];
    if (Array.isArray(data.prompt_template)) {
      for (const message of data.prompt_template) {
        const text = messageText(message, data, context);
        if (message.role === "system") system.push(text);
        else if (message.role === "user") user.push(text);
        else {
          user.push(`Assistant: ${text}`);
          context.change("An assistant message became part of the user prompt (one system and one user prompt here)");
        }
      }
      if (user.length > 1) context.change(`${user.length} user messages were joined into one user prompt`);
      if (system.length > 1) context.change(`${system.length} system messages were joined into one system prompt`);
    } else {
      user.push(messageText(data.prompt_template, data, context));
    }
    if (
      data.context?.enabled &&
      data.context.variable_selector?.length &&
      !JSON.stringify(data.prompt_template).includes("{{#context#}}")
    ) {
      context.change("The context variable is not used in any prompt, so it is not passed");
    }
    const query = chatQuery(data, context);
    // Dify would send it a second time after a user message that already is the message; once is enough.
    if (query !== undefined && !user.some((text) => text.trim() === query.trim())) user.push(query);
    if (data.vision?.enabled) context.change("Vision is off: image inputs are not passed to the model");
    const structured = data.structured_output_enabled === true && data.structured_output?.schema !== undefined;
    return {
      nodes: [
        trellisNode(node, "llm", {
          model,
          systemPrompt: system.join("\n\n"),
          userPrompt: user.join("\n\n"),
          ...(temperature === undefined ? {} : { temperature }),
          ...(maxTokens === undefined ? {} : { maxTokens }),
          ...(reasoningEffort === undefined ? {} : { reasoningEffort }),
          responseFormat: structured ? "json" : "text",
          ...(structured ? { jsonSchema: data.structured_output!.schema } : {}),
          reasoningFormat: data.reasoning_format ?? "tagged",
        }),
      ],
    };
  },
  outputPath: (path) =>
    path[0] === "structured_output"
      ? ["json", ...path.slice(1)]
      : path[0] === "reasoning_content"
        ? ["reasoning", ...path.slice(1)]
        : path,
};

import { z } from "zod";
import type { WorkflowNode } from "../../../workflow/document";
import { formatReference } from "../../../workflow/variables";
import type { DifyNodeInfo, MapContext, NodeMapper } from "../context";
import { convertJinja, hasJinjaBlocks, jinjaRenderPython } from "../jinja";
import { templateOf } from "../references";
import { mapModel, modelConfigSchema, readData, toIdentifier, trellisNode, variableSelectorSchema } from "./shared";

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

/** Suffix of the helper node that renders an LLM's Jinja2 prompts with blocks (`<id>-prompt`). */
const PROMPT_SUFFIX = "prompt";

/** Whether a message (as written in the file) is a Jinja2 prompt with `{% … %}` blocks. */
function needsJinja(message: unknown): boolean {
  const { edition_type, jinja2_text } = (message ?? {}) as { edition_type?: unknown; jinja2_text?: unknown };
  return edition_type === "jinja2" && hasJinjaBlocks(jinja2_text);
}

/** Whether any prompt message of an LLM node (its raw data) needs Jinja2 itself to render. */
function needsPromptRenderer(data: Record<string, unknown>): boolean {
  const template = data.prompt_template;
  return Array.isArray(template) ? template.some(needsJinja) : needsJinja(template);
}

function messageText(
  message: { text: string; edition_type?: string | null; jinja2_text?: string | null },
  data: LlmData,
  context: MapContext,
  renderWithJinja: (template: string) => string,
): string {
  const contextSelector = data.context?.enabled ? data.context.variable_selector : undefined;
  // The same test `targetNode` makes on the raw data (needsPromptRenderer), so the edges and the nodes agree.
  if (needsJinja(message)) return renderWithJinja(message.jinja2_text as string);
  if (message.edition_type === "jinja2" && message.jinja2_text) {
    const variables = new Map(
      (data.prompt_config?.jinja2_variables ?? []).map((variable) => [
        variable.variable,
        context.selector(variable.value_selector),
      ]),
    );
    const converted = convertJinja(message.jinja2_text, variables);
    for (const change of converted.changes) context.change(change);
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

/**
 * llm: model, prompt messages by role, context, structured output, the chatflow's message; memory
 * and vision are off. Jinja2 prompts of plain variables become templates; Jinja2 prompts with
 * `{% … %}` blocks are rendered as Dify renders them, by a Python code node placed before the LLM
 * (`<id>-prompt`, on the code sandbox service), whose fields the prompts then read.
 */
export const llmMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(llmDataSchema, node, context);
    const { model, temperature, maxTokens, reasoningEffort } = mapModel(data.model, context);
    const rendered: Record<string, string> = {};
    const rendererId = context.helperId(PROMPT_SUFFIX);
    const renderWithJinja = (template: string) => {
      const field = `message${Object.keys(rendered).length + 1}`;
      rendered[field] = template;
      return formatReference(rendererId, [field]);
    };
    const system: string[] = [];
    const user: string[] = [];
    if (Array.isArray(data.prompt_template)) {
      for (const message of data.prompt_template) {
        const text = messageText(message, data, context, renderWithJinja);
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
      user.push(messageText(data.prompt_template, data, context, renderWithJinja));
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
    const llm = trellisNode(node, "llm", {
      model,
      systemPrompt: system.join("\n\n"),
      userPrompt: user.join("\n\n"),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...(reasoningEffort === undefined ? {} : { reasoningEffort }),
      responseFormat: structured ? "json" : "text",
      ...(structured ? { jsonSchema: data.structured_output!.schema } : {}),
      reasoningFormat: data.reasoning_format ?? "tagged",
    });
    if (Object.keys(rendered).length === 0) return { nodes: [llm] };
    return {
      nodes: [llm, promptRenderer(node, llm, rendererId, rendered, data, context)],
      edges: [
        {
          id: `${rendererId}-${node.id}`,
          source: rendererId,
          sourceHandle: "out",
          target: node.id,
          targetHandle: "in",
        },
      ],
    };
  },
  // Edges into the LLM arrive at its prompt renderer, when it has one.
  targetNode: (node) => (needsPromptRenderer(node.data) ? `${node.id}-${PROMPT_SUFFIX}` : node.id),
  outputPath: (path) =>
    path[0] === "structured_output"
      ? ["json", ...path.slice(1)]
      : path[0] === "reasoning_content"
        ? ["reasoning", ...path.slice(1)]
        : path,
};

/**
 * The Python code node that renders an LLM's Jinja2 prompts with blocks before it, with the
 * node's Jinja2 variables as inputs: one string output per prompt (`message1`, …).
 */
function promptRenderer(
  node: DifyNodeInfo,
  llm: WorkflowNode,
  id: string,
  templates: Record<string, string>,
  data: LlmData,
  context: MapContext,
): WorkflowNode {
  const variables = data.prompt_config?.jinja2_variables ?? [];
  const inputs = variables.map((variable) => ({
    name: toIdentifier(variable.variable),
    value: context.selector(variable.value_selector),
  }));
  context.change(
    `Jinja2 blocks ({% … %}) in the prompt run as in Dify: the Python code node "${llm.data.title} · prompt" before it renders them with jinja2 on the code sandbox service (TRELLIS_CODE_SANDBOX_URL); without one it fails with sandbox_not_configured`,
  );
  if (inputs.some((input, index) => input.name !== variables[index]!.variable)) {
    context.change(
      "Some Jinja2 variable names were changed to be valid identifiers; rename them in the prompt to match",
    );
  }
  const renderer = trellisNode(
    node,
    "code",
    {
      language: "python3",
      code: jinjaRenderPython(templates),
      inputs,
      outputs: Object.keys(templates).map((name) => ({ name, type: "string" })),
    },
    id,
  );
  renderer.data.title = `${llm.data.title} · prompt`;
  // Above and left of the LLM it feeds, so its edge runs forward into the LLM (moved off any
  // node there when the import ends: place-helpers.ts).
  renderer.position = { x: node.position.x - 300, y: node.position.y - 140 };
  return renderer;
}

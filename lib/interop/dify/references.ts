import { formatReference } from "../../workflow/variables";
import type { DifyNodeInfo, ImplicitInput } from "./context";

/**
 * Dify's references: `{{#node_id.field.sub#}}` in text, `["node_id", "field"]` selectors, with the
 * roots `sys` (system variables), `env` (environment variables) and `conversation`
 * (conversation variables). See Dify's `api/core/workflow/nodes/base/variable_template_parser.py`.
 */
const DIFY_REFERENCE = /\{\{#([^#{}\s]+)#\}\}/g;

/** Dify system variables that become named start inputs (`sys.query` is the chat message). */
const SYSTEM_INPUTS: Record<string, ImplicitInput> = {
  query: { name: "query", type: "string", description: "The user's message (Dify sys.query)" },
  user_id: { name: "sys_user_id", type: "string", description: "Dify sys.user_id" },
  conversation_id: { name: "sys_conversation_id", type: "string", description: "Dify sys.conversation_id" },
  dialogue_count: { name: "sys_dialogue_count", type: "number", description: "Dify sys.dialogue_count" },
  app_id: { name: "sys_app_id", type: "string", description: "Dify sys.app_id" },
  workflow_id: { name: "sys_workflow_id", type: "string", description: "Dify sys.workflow_id" },
  workflow_run_id: { name: "sys_workflow_run_id", type: "string", description: "Dify sys.workflow_run_id" },
};

/** What the resolver needs to know about the whole file. */
export interface ResolverOptions {
  /** Every node by its Dify id. */
  nodesBySourceId: ReadonlyMap<string, DifyNodeInfo>;
  /** Dify output path → Trellis output path, per node (from the node's mapper). */
  outputPath: (node: DifyNodeInfo, path: string[]) => string[];
  /** Trellis id of the start node. */
  startId: string;
  /** Conversation variables by name (they become start inputs with their value as default). */
  conversationVariables: ReadonlyMap<string, ImplicitInput>;
  /** Called once per implicit start input a reference needs. */
  needInput: (input: ImplicitInput) => void;
}

/** Converts Dify selectors and templates to Trellis ones, telling `onChange` what it could not keep. */
export class ReferenceResolver {
  constructor(private readonly options: ResolverOptions) {}

  /** A Dify selector as a Trellis selector; an unknown root is kept so the compiler flags it. */
  selector(selector: readonly string[], current: DifyNodeInfo, onChange: (message: string) => void): string[] {
    const [root, ...rest] = selector.map(String);
    if (root === undefined) return [];
    if (root === "sys") return this.system(rest, onChange);
    if (root === "env") return ["env", ...rest];
    if (root === "conversation") {
      const variable = this.options.conversationVariables.get(rest[0] ?? "");
      if (!variable) {
        onChange(`{{#conversation.${rest.join(".")}#}} names no conversation variable; left as written`);
        return [root, ...rest];
      }
      this.options.needInput(variable);
      onChange(`conversation.${variable.name} became the start input "${variable.name}" (no memory between runs)`);
      return [this.options.startId, variable.name, ...rest.slice(1)];
    }
    const node = this.options.nodesBySourceId.get(root);
    if (!node) {
      onChange(`{{#${selector.join(".")}#}} refers to a node that is not in the file; left as written`);
      return [root, ...rest];
    }
    if (node.type === "iteration" && (rest[0] === "item" || rest[0] === "index")) {
      if (current.parentId !== node.id) {
        onChange(
          `${rest[0]} of the outer iteration "${node.id}" is not visible here; it now reads the nearest iteration's ${rest[0]}`,
        );
      }
      return rest[0] === "index" ? ["index"] : ["item", ...rest.slice(1)];
    }
    return [node.id, ...this.options.outputPath(node, rest)];
  }

  /** A Dify template with `{{#…#}}` references as a Trellis template. */
  template(text: string, current: DifyNodeInfo, onChange: (message: string) => void): string {
    if (!text.includes("{{#")) return text;
    return text.replace(DIFY_REFERENCE, (_match, body: string) => {
      const converted = this.selector(body.split("."), current, onChange);
      return converted.length === 0 ? "" : formatReference(converted[0]!, converted.slice(1));
    });
  }

  private system(rest: string[], onChange: (message: string) => void): string[] {
    const name = rest[0] ?? "";
    const input = SYSTEM_INPUTS[name];
    if (!input) {
      onChange(`sys.${name} has no equivalent (uploaded files are not supported); left as written`);
      return ["sys", ...rest];
    }
    this.options.needInput(input);
    if (name !== "query") onChange(`sys.${name} became the start input "${input.name}"`);
    return [this.options.startId, input.name];
  }
}

/** The selector of a reference written as a template, e.g. `{{node.text}}`. */
export function templateOf(selector: readonly string[]): string {
  return selector.length === 0 ? "" : formatReference(selector[0]!, selector.slice(1));
}

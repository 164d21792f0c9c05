import type { SecretSlot } from "../report";
import type { ImplicitInput } from "./context";
import { toIdentifier } from "./nodes/shared";
import type { DifyFile } from "./schema";
import { declaredTypeOfDify } from "./value-types";

/**
 * Environment and conversation variables (`workflow.environment_variables`,
 * `workflow.conversation_variables`). Environment variables keep their `{{env.NAME}}`
 * references, which read the server's TRELLIS_PUBLIC_NAME; secret ones become empty slots.
 * Conversation variables become start inputs with their value as the default, since nothing is
 * remembered between runs here.
 */
export function mapVariables(
  file: DifyFile,
  notes: string[],
  onSecret: (slot: SecretSlot, value: unknown) => void,
): { conversation: Map<string, ImplicitInput> } {
  for (const [index, variable] of (file.workflow.environment_variables ?? []).entries()) {
    if (variable.value_type === "secret") {
      onSecret(
        {
          kind: "environment-variable",
          name: variable.name,
          sourcePath: `workflow.environment_variables.${index}.value`,
          hadValue: typeof variable.value === "string" && variable.value !== "",
          message: `Secret environment variable "${variable.name}" was not imported. Templates cannot read secrets here: store it as an HTTP credential and use that on the HTTP node.`,
        },
        variable.value,
      );
      continue;
    }
    notes.push(
      `Environment variable "${variable.name}" (${variable.value_type}${variable.value === undefined || variable.value === "" ? "" : ` = ${JSON.stringify(variable.value)}`}): {{env.${variable.name}}} reads the server's TRELLIS_PUBLIC_${variable.name}; set it there.`,
    );
  }
  const conversation = new Map<string, ImplicitInput>();
  for (const variable of file.workflow.conversation_variables ?? []) {
    const type = declaredTypeOfDify(variable.value_type);
    conversation.set(variable.name, {
      name: toIdentifier(variable.name),
      type,
      description: variable.description || `Dify conversation variable ${variable.name}`,
      ...(variable.value === undefined || variable.value === null || variable.value === ""
        ? {}
        : { default: variable.value }),
    });
    notes.push(
      `Conversation variable "${variable.name}" becomes a start input where it is read; it is not remembered between runs.`,
    );
  }
  const features = file.workflow.features ?? {};
  const enabled = Object.entries(features)
    .filter(([, value]) => {
      if (typeof value === "string") return value.trim() !== "";
      if (Array.isArray(value)) return value.length > 0;
      return typeof value === "object" && value !== null && (value as { enabled?: unknown }).enabled === true;
    })
    .map(([name]) => name);
  if (enabled.length > 0) notes.push(`Chat app features are not imported: ${enabled.join(", ")}`);
  if (file.dependencies && file.dependencies.length > 0) {
    notes.push(
      `The file lists ${file.dependencies.length} Dify plugin dependencies; plugins do not exist here (their tools are listed as references).`,
    );
  }
  return { conversation };
}

/** Canvas notes (`custom-note` nodes; text is plain or Lexical JSON) as report lines starting with "Note: ". */
export function collectNotes(notes: readonly unknown[]): string[] {
  return notes
    .map((data) => {
      const text = (data as { text?: unknown }).text;
      if (typeof text !== "string") return "";
      try {
        const parsed: unknown = JSON.parse(text);
        return lexicalText(parsed).trim();
      } catch {
        return text.trim();
      }
    })
    .filter((text) => text !== "")
    .map((text) => `Note: ${text}`);
}

function lexicalText(value: unknown, depth = 0): string {
  if (depth > 32 || typeof value !== "object" || value === null) return "";
  const node = value as { text?: unknown; children?: unknown; root?: unknown; type?: unknown };
  if (node.root) return lexicalText(node.root, depth + 1);
  const own = typeof node.text === "string" ? node.text : "";
  const children = Array.isArray(node.children)
    ? node.children.map((child) => lexicalText(child, depth + 1)).join("")
    : "";
  return own + children + (node.type === "paragraph" ? "\n" : "");
}

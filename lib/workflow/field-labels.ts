/**
 * Words for config fields, shared by the config form's labels and the compiler's messages, so
 * a field is called the same everywhere and no message shows a path like `inputs.0.name`.
 */

/** Labels that a mechanical split of the key would get wrong ("Timeout Ms", "Url"). */
const FIELD_LABELS: Record<string, string> = {
  argumentsTemplate: "Arguments (JSON template)",
  basePath: "Base path",
  costAlertUsd: "Cost alert (USD)",
  deadlineMs: "Deadline (ms)",
  defaultOutput: "Default output",
  defaultValues: "Default values",
  errorMode: "When an item fails",
  errorStrategy: "When the node fails",
  flattenOutput: "Join list outputs into one list",
  intervalMs: "Interval (ms)",
  jsonSchema: "JSON schema",
  maxAttempts: "Max attempts",
  maxIterations: "Max iterations",
  maxReplans: "Max replans",
  maxSteps: "Max steps",
  maxTokens: "Max tokens",
  maxToolCalls: "Max tool calls",
  outputSelector: "Output of each item",
  readOnlyOnly: "Read-only tools only",
  reasoningEffort: "Reasoning effort",
  reasoningFormat: "Reasoning",
  responseFormat: "Response format",
  synthesizerModel: "Synthesizer model",
  systemPrompt: "System prompt",
  timeoutMs: "Timeout (ms)",
  toolTimeoutMs: "Tool timeout (ms)",
  url: "URL",
  userPrompt: "User prompt",
};

/** Singular nouns for list items ("Input 2", "Case 1"). */
const ITEM_NOUNS: Record<string, string> = {
  cases: "Case",
  conditions: "Condition",
  fields: "Field",
  headers: "Header",
  inputs: "Input",
  outputs: "Output",
  query: "Query parameter",
  steps: "Step",
  tools: "Tool",
};

/** The label of a config key: `timeoutMs` → "Timeout (ms)", `maxTokens` → "Max tokens". */
export function fieldLabel(key: string): string {
  const known = FIELD_LABELS[key];
  if (known) return known;
  const words = key
    .replace(/Ms$/, " (ms)")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Words for choices whose stored value is not what people call them. */
const OPTION_LABELS: Record<string, Record<string, string>> = {
  language: { javascript: "JavaScript", python3: "Python 3" },
  // Value types of start inputs and code outputs.
  type: {
    "array<string>": "array of strings",
    "array<number>": "array of numbers",
    "array<boolean>": "array of booleans",
    "array<object>": "array of objects",
  },
};

/** The label of the choice `option` of the field `key`: `language`, `python3` → "Python 3"; else the value. */
export function optionLabel(key: string, option: unknown): string {
  return OPTION_LABELS[key]?.[String(option)] ?? String(option);
}

/** Config fields whose value is edited as free-form JSON: a path below one is a place in that JSON. */
const JSON_VALUED_FIELDS = new Set(["jsonSchema"]);

/** The label of item `index` (0-based) of the list `key`: `inputs`, 0 → "Input 1". */
export function listItemLabel(key: string, index: number): string {
  const noun = ITEM_NOUNS[key] ?? fieldLabel(key).replace(/s$/, "");
  return `${noun} ${index + 1}`;
}

/**
 * A config path in words, naming the innermost field first: `["inputs", 0, "name"]` →
 * "Name (input 1)", `["retry", "maxAttempts"]` → "Max attempts", `["model", "model"]` → "Model".
 */
export function describeFieldPath(path: readonly (string | number)[]): string {
  const segments = path[0] === "data" ? path.slice(1) : path;
  if (segments.length === 0) return "Settings";
  // Inside a value edited as JSON, the place is said as a path into it: "JSON schema (properties.city.type)".
  const json = segments.findIndex((segment) => typeof segment === "string" && JSON_VALUED_FIELDS.has(segment));
  if (json >= 0 && json < segments.length - 1) {
    const outer = describeFieldPath(segments.slice(0, json + 1));
    return `${outer} (${segments.slice(json + 1).join(".")})`;
  }
  const last = segments[segments.length - 1];
  const items: string[] = [];
  for (let position = 1; position < segments.length; position++) {
    const segment = segments[position];
    const parent = segments[position - 1];
    if (typeof segment === "number" && typeof parent === "string") items.push(listItemLabel(parent, segment));
  }
  if (typeof last === "number") {
    const parent = segments[segments.length - 2];
    return typeof parent === "string" ? listItemLabel(parent, last) : `Item ${last + 1}`;
  }
  const label = fieldLabel(last);
  return items.length > 0 ? `${label} (${items.map((item) => item.toLowerCase()).join(", ")})` : label;
}

/** A validation message for people: "Name (input 1): use letters, digits and underscores". */
export function fieldMessage(path: readonly (string | number)[], message: string): string {
  const text = message.trim();
  const sentence = /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
  return `${describeFieldPath(path)}: ${sentence}`;
}

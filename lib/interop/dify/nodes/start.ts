import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, trellisNode } from "./shared";

/** Dify's VariableEntity (api/core/app/app_config/entities.py). */
const variableSchema = z.looseObject({
  variable: z.string().min(1),
  label: z.string().nullish(),
  description: z.string().nullish(),
  type: z.string().default("text-input"),
  required: z.boolean().default(false),
  options: z.array(z.unknown()).nullish(),
  default: z.unknown().optional(),
  max_length: z.number().nullish(),
});

const startDataSchema = z.looseObject({ variables: z.array(variableSchema).nullish() });

const TYPES: Record<string, "string" | "number" | "boolean" | "object" | "array"> = {
  "text-input": "string",
  paragraph: "string",
  select: "string",
  number: "number",
  checkbox: "boolean",
  json_object: "object",
  file: "object",
  "file-list": "array",
};

/** start: variables → inputs with type, required, default and description. */
export const startMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(startDataSchema, node, context);
    const inputs = (data.variables ?? []).map((variable) => {
      const type = TYPES[variable.type];
      if (!type) context.change(`Input "${variable.variable}" of type "${variable.type}" became a text input`);
      if (variable.type === "file" || variable.type === "file-list") {
        context.change(`Input "${variable.variable}" is a file upload in Dify; here it takes the file's data as JSON`);
      }
      if (variable.type === "select" && variable.options && variable.options.length > 0) {
        context.change(
          `Input "${variable.variable}": the choices (${variable.options.join(", ")}) are kept in its description only`,
        );
      }
      // Dify fills in a maximum length for every input but enforces it on text only.
      if (variable.max_length && (variable.type === "text-input" || variable.type === "paragraph"))
        context.change(`Input "${variable.variable}": the maximum length ${variable.max_length} is not enforced`);
      const descriptionParts = [variable.label ?? "", variable.description ?? ""].filter((part) => part.trim() !== "");
      if (variable.type === "select" && variable.options?.length)
        descriptionParts.push(`One of: ${variable.options.join(", ")}`);
      return {
        name: variable.variable,
        type: type ?? "string",
        required: variable.required,
        ...(descriptionParts.length > 0 ? { description: descriptionParts.join(" — ") } : {}),
        ...(variable.default !== undefined && variable.default !== null && variable.default !== ""
          ? { default: variable.default }
          : {}),
      };
    });
    return { nodes: [trellisNode(node, "start", { inputs })] };
  },
};

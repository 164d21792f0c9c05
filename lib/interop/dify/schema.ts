import { z } from "zod";

/*
 * The DSL envelope as Dify writes it (api/services/app_dsl_service.py `export_dsl`,
 * `_append_workflow_export_data`): `version`, `kind: app`, `app: { name, mode, icon, … }`,
 * `workflow: { graph: { nodes, edges }, features, environment_variables, conversation_variables }`,
 * `dependencies`. Only the envelope is checked here; each node's `data` is checked by its mapper,
 * so one odd node becomes a placeholder instead of rejecting the file.
 */

/** A React Flow node as Dify saves it; `type` is `custom` (or `custom-note` for notes), the node type is `data.type`. */
export const difyNodeSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  type: z.string().optional(),
  parentId: z.string().optional(),
  position: z.object({ x: z.number(), y: z.number() }).optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  data: z.looseObject({
    type: z.string().optional(),
    title: z.string().optional(),
    desc: z.string().nullish(),
  }),
});

/** A React Flow edge: handles are `source`/`target`, an if-else case id or `false`, a class id, `fail-branch`. */
export const difyEdgeSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  source: z.union([z.string().min(1), z.number()]).transform(String),
  target: z.union([z.string().min(1), z.number()]).transform(String),
  sourceHandle: z.union([z.string(), z.number()]).transform(String).nullish(),
  targetHandle: z.union([z.string(), z.number()]).transform(String).nullish(),
});

/** `environment_variables` entries (`value_type`: string, number, secret). */
export const difyEnvironmentVariableSchema = z.looseObject({
  name: z.string().min(1),
  value: z.unknown().optional(),
  value_type: z.string().default("string"),
  description: z.string().nullish(),
});

/** `conversation_variables` entries (advanced-chat memory). */
export const difyConversationVariableSchema = z.looseObject({
  name: z.string().min(1),
  value: z.unknown().optional(),
  value_type: z.string().default("string"),
  description: z.string().nullish(),
});

/** The whole file. */
export const difyFileSchema = z.looseObject({
  kind: z.literal("app", { message: 'Expected "app": only app exports can be imported' }).optional(),
  version: z.union([z.string(), z.number()]).transform(String).optional(),
  app: z.looseObject({
    name: z.string().default("Imported Dify app"),
    mode: z.enum(["workflow", "advanced-chat"], {
      message: 'Only "workflow" and "advanced-chat" apps have a graph to import',
    }),
    description: z.string().nullish(),
  }),
  workflow: z.looseObject({
    graph: z.looseObject({
      nodes: z.array(difyNodeSchema),
      edges: z.array(difyEdgeSchema).default([]),
    }),
    features: z.record(z.string(), z.unknown()).nullish(),
    environment_variables: z.array(difyEnvironmentVariableSchema).nullish(),
    conversation_variables: z.array(difyConversationVariableSchema).nullish(),
  }),
  dependencies: z.array(z.unknown()).nullish(),
});

/** A parsed Dify node. */
export type DifyNode = z.output<typeof difyNodeSchema>;
/** A parsed Dify edge. */
export type DifyEdge = z.output<typeof difyEdgeSchema>;
/** A parsed Dify file. */
export type DifyFile = z.output<typeof difyFileSchema>;

import { z } from "zod";

/**
 * Workspace environment variables as the settings API accepts them and the browser sees them
 * (isomorphic: the route, the service, the settings form and the editor's variables panel share
 * it). They are not secrets: values are shown to every member and may appear in run records.
 */

/** Longest value, in characters: an env variable is a setting, not a document. */
export const WORKSPACE_VARIABLE_VALUE_LIMIT = 4000;

/** Letters, digits and underscores, not starting with a digit (so `{{env.NAME}}` parses). */
export const WORKSPACE_VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variable's name, as the create form and the path of `PUT /api/variables/:name` carry it. */
export const workspaceVariableNameSchema = z
  .string()
  .trim()
  .min(1, "Enter a name")
  .max(64, "Use at most 64 characters")
  .regex(WORKSPACE_VARIABLE_NAME_PATTERN, "Use letters, digits and underscores, not starting with a digit");

/** The variable's value. */
export const workspaceVariableValueSchema = z
  .string()
  .max(WORKSPACE_VARIABLE_VALUE_LIMIT, `Use at most ${WORKSPACE_VARIABLE_VALUE_LIMIT} characters`);

/** A new variable as the settings form submits it. */
export const workspaceVariableInputSchema = z.object({
  name: workspaceVariableNameSchema,
  value: workspaceVariableValueSchema,
});

/** A submitted variable. */
export type WorkspaceVariableInput = z.input<typeof workspaceVariableInputSchema>;

/** A changed value (`PUT /api/variables/:name`). */
export const workspaceVariableUpdateSchema = z.object({ value: workspaceVariableValueSchema });

/** A workspace variable as members see it. */
export interface WorkspaceVariableView {
  /** Name templates read as `{{env.NAME}}`. */
  name: string;
  /** The value (not secret). */
  value: string;
  /** Last change. */
  updatedAt: string;
}

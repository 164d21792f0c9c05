import { z } from "zod";
import type { CompiledWorkflow } from "./compiled";

/**
 * Pinned outputs (n8n's pin data): a node whose draft carries `data.pin` does not execute in
 * editor runs; the engine hands its pinned outputs downstream and records the node run as pinned
 * (`processData.pinned`), with no model call. Published versions may carry a pin (it is part of
 * the draft they were published from), but published, API and scheduled runs ignore pins, as n8n
 * ignores pin data in production executions.
 */

/** Largest pinned value, as JSON characters: a pin is sample data, not a data store. */
export const PIN_SIZE_LIMIT = 200_000;

/** A node's pin as saved in `node.data.pin`. */
export const nodePinSchema = z.object({
  /** The outputs downstream nodes read, by field. */
  outputs: z.record(z.string(), z.unknown()),
  /** `run`: copied from a run's outputs; `mock`: typed by hand. */
  source: z.enum(["run", "mock"]),
  /** The run the outputs came from, for `run` pins. */
  runId: z.string().optional(),
});

/** A node's pin. */
export type NodePin = z.infer<typeof nodePinSchema>;

/** The pin of a node's data, or undefined when there is none (or it is malformed). */
export function readPin(data: Record<string, unknown>): NodePin | undefined {
  if (data.pin === undefined) return undefined;
  const parsed = nodePinSchema.safeParse(data.pin);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Every pinned node of a document: id → pin. Takes the document as received (runs get it before
 * migration): anything that is not a node with an object `data` has no pin.
 */
export function pinsOf(document: unknown): Map<string, NodePin> {
  const pins = new Map<string, NodePin>();
  const nodes = (document as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return pins;
  for (const node of nodes as { id?: unknown; data?: unknown }[]) {
    if (typeof node?.id !== "string" || typeof node.data !== "object" || node.data === null) continue;
    const pin = readPin(node.data as Record<string, unknown>);
    if (pin) pins.set(node.id, pin);
  }
  return pins;
}

/**
 * The compiled workflow with the document's pins applied to its nodes (for editor runs only).
 * Returns the same object when nothing is pinned.
 */
export function applyPins(workflow: CompiledWorkflow, document: unknown): CompiledWorkflow {
  const pins = pinsOf(document);
  if (pins.size === 0) return workflow;
  const nodes = { ...workflow.nodes };
  for (const [nodeId, pin] of pins) {
    const node = nodes[nodeId];
    if (node) nodes[nodeId] = { ...node, pinned: { outputs: pin.outputs, source: pin.source } };
  }
  return { ...workflow, nodes };
}

/** Parses a mock typed in the editor: a JSON object of output fields, within the size limit. */
export function parseMockOutputs(
  text: string,
): { ok: true; outputs: Record<string, unknown> } | { ok: false; message: string } {
  if (text.length > PIN_SIZE_LIMIT) return { ok: false, message: `Use at most ${PIN_SIZE_LIMIT} characters` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: 'Write a JSON object of output fields, e.g. {"text": "…"}' };
  }
  return { ok: true, outputs: value as Record<string, unknown> };
}

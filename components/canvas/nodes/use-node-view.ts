"use client";

import { useMemo } from "react";
import type { NodeDefinition, OutputPort } from "@/lib/workflow/node-definition";
import { type NodePin, readPin } from "@/lib/workflow/pins";
import { findNodeDefinition } from "../node-catalog";
import type { CanvasNodeData } from "../store/types";

/** What a canvas node shows, derived from its data once per data change. */
export interface NodeView {
  /** The type's definition, when known. */
  definition: NodeDefinition | undefined;
  /**
   * The config with the schema's defaults applied (the raw data over the defaults while it is
   * invalid): per-type cards read their details from it without parsing again.
   */
  config: Record<string, unknown>;
  /** One-line summary from the definition. */
  summary: string;
  /** Source handles to draw. */
  ports: OutputPort[];
  /** Where the node's pinned outputs came from, when it is pinned (editor runs skip it). */
  pinned?: NodePin["source"];
}

const FALLBACK_PORTS: OutputPort[] = [{ id: "out", label: "Next" }];

/** Views by the `data` object they were derived from (see {@link nodeViewOf}). */
const viewsByData = new WeakMap<CanvasNodeData, { type: string | undefined; view: NodeView }>();

/**
 * Parses the node's config with its schema (defaults applied) to feed `summarize` and
 * `outputPorts`; falls back to the raw data while the config is invalid. Kept per `data` object:
 * the store keeps `data`'s identity across drags and measurements, so a node is parsed once, and
 * the canvas's size estimate on load (`card-size.ts`) and the card share that one parse.
 */
export function nodeViewOf(type: string | undefined, data: CanvasNodeData): NodeView {
  const cached = viewsByData.get(data);
  if (cached && cached.type === type) return cached.view;
  const view = deriveNodeView(type, data);
  viewsByData.set(data, { type, view });
  return view;
}

function deriveNodeView(type: string | undefined, data: CanvasNodeData): NodeView {
  const definition = findNodeDefinition(type);
  const { title: _title, pin: _pin, ...rawConfig } = data;
  const pinned = readPin(data)?.source;
  if (!definition)
    return { definition, config: rawConfig, summary: `Unknown node type "${type}"`, ports: FALLBACK_PORTS };
  const parsed = definition.configSchema.safeParse(rawConfig);
  const config = (parsed.success ? parsed.data : { ...definition.defaults(), ...rawConfig }) as Record<string, unknown>;
  let summary = "";
  let ports = FALLBACK_PORTS;
  try {
    summary = definition.summarize(config);
    ports = definition.outputPorts(config);
  } catch {
    summary = "Invalid configuration";
  }
  return pinned ? { definition, config, summary, ports, pinned } : { definition, config, summary, ports };
}

/** {@link nodeViewOf} for a node component: recomputed only when `type` or `data` changes. */
export function useNodeView(type: string | undefined, data: CanvasNodeData): NodeView {
  return useMemo(() => nodeViewOf(type, data), [type, data]);
}

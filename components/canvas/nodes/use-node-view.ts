"use client";

import { useMemo } from "react";
import type { NodeDefinition, OutputPort } from "@/lib/workflow/node-definition";
import { findNodeDefinition } from "../node-catalog";
import type { CanvasNodeData } from "../store/types";

/** What a canvas node shows, derived from its data once per data change. */
export interface NodeView {
  /** The type's definition, when known. */
  definition: NodeDefinition | undefined;
  /** One-line summary from the definition. */
  summary: string;
  /** Source handles to draw. */
  ports: OutputPort[];
}

/**
 * Parses the node's config with its schema (defaults applied) to feed `summarize` and
 * `outputPorts`; falls back to the raw data while the config is invalid.
 */
export function useNodeView(type: string | undefined, data: CanvasNodeData): NodeView {
  return useMemo(() => {
    const definition = findNodeDefinition(type);
    if (!definition)
      return { definition, summary: `Unknown node type "${type}"`, ports: [{ id: "out", label: "Next" }] };
    const { title: _title, ...config } = data;
    const parsed = definition.configSchema.safeParse(config);
    const effective = (parsed.success ? parsed.data : { ...definition.defaults(), ...config }) as Record<
      string,
      unknown
    >;
    let summary = "";
    let ports: OutputPort[] = [{ id: "out", label: "Next" }];
    try {
      summary = definition.summarize(effective);
      ports = definition.outputPorts(effective);
    } catch {
      summary = "Invalid configuration";
    }
    return { definition, summary, ports };
  }, [type, data]);
}

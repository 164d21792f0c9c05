"use client";

import { ChevronRightIcon, PlayIcon } from "lucide-react";
import { memo, useCallback, useEffect, useMemo, useState } from "react";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import type { NodeDefinition } from "@/lib/workflow/node-definition";
import { codeForLanguage } from "@/lib/workflow/nodes/code";
import { findNodeDefinition } from "../node-catalog";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import type { CanvasIssue } from "../store/types";
import { PinSection } from "./pin-section";
import { type FieldContext, SchemaField } from "./schema-form";
import { fieldDomId, type JsonSchema } from "./schema-json";
import { bodyVariables, upstreamVariables } from "./upstream-variables";

/** Policy keys every node has; shown in a collapsed section below the node's own fields. */
const POLICY_KEYS = new Set(["timeoutMs", "retry", "errorStrategy", "defaultOutput"]);
const NO_ISSUES: CanvasIssue[] = [];
const NO_PATHS: ReadonlySet<string> = new Set();

/** The panel fills the inspector column below its close button and scrolls by itself. */
const PANEL_CLASS_NAME = "min-h-0 flex-1 overflow-y-auto bg-card px-3.5 py-3";

const schemaCache = new Map<string, JsonSchema>();

/** The node config's JSON Schema (input side: fields with defaults are optional), computed once per type. */
function jsonSchemaOf(definition: NodeDefinition): JsonSchema {
  let schema = schemaCache.get(definition.type);
  if (!schema) {
    schema = z.toJSONSchema(definition.configSchema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    schemaCache.set(definition.type, schema);
  }
  return schema;
}

/**
 * The change a field's edit makes. Switching a code node's language also swaps the starting code
 * for the other language's (code the user wrote stays), in the same undoable step.
 */
function configPatch(
  type: string,
  data: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  if (type === "code" && key === "language" && (value === "javascript" || value === "python3")) {
    return { language: value, code: codeForLanguage(String(data.code ?? ""), value) };
  }
  return { [key]: value };
}

/** Config form of the single selected node, generated from its zod schema. */
export const ConfigPanel = memo(function ConfigPanel({ onRunNode }: { onRunNode: (nodeId: string) => void }) {
  const store = useEditorStoreApi();
  const nodeId = useEditorStore((state) => (state.selectedNodeIds.length === 1 ? state.selectedNodeIds[0] : null));
  // Selecting `data` (not the node) keeps this panel still while the node is dragged.
  const data = useEditorStore((state) => (nodeId ? state.nodes.find((node) => node.id === nodeId)?.data : undefined));
  const type = useEditorStore((state) => (nodeId ? state.nodes.find((node) => node.id === nodeId)?.type : undefined));
  const edges = useEditorStore((state) => state.edges);
  const issues = useEditorStore((state) => (nodeId ? (state.issuesByNode[nodeId] ?? NO_ISSUES) : NO_ISSUES));
  const focusRequest = useEditorStore((state) => state.focusRequest);
  const readOnly = useEditorStore((state) => state.readOnly);
  const definition = findNodeDefinition(type);
  // Fields left at least once, per node; a field shows its issues only after that.
  const [touched, setTouched] = useState<{ nodeId: string | null; paths: ReadonlySet<string> }>({
    nodeId: null,
    paths: new Set(),
  });
  const touchedPaths = touched.nodeId === nodeId ? touched.paths : NO_PATHS;
  const onTouched = useCallback(
    (path: (string | number)[]) => {
      const key = path.join(".");
      setTouched((current) => {
        const paths = current.nodeId === nodeId ? current.paths : NO_PATHS;
        return paths.has(key) ? current : { nodeId, paths: new Set([...paths, key]) };
      });
    },
    [nodeId],
  );

  // `data` also refreshes body outputs and upstream fields after edits of this node.
  const context = useMemo((): FieldContext | null => {
    if (!nodeId) return null;
    const { nodes } = store.getState();
    return {
      nodeId,
      variables: upstreamVariables(nodeId, nodes, edges),
      bodyVariables: bodyVariables(nodeId, nodes),
      issues,
      touched: touchedPaths,
      onTouched,
      config: data ?? {},
    };
  }, [nodeId, edges, issues, store, data, touchedPaths, onTouched]);

  useEffect(() => {
    if (!focusRequest || focusRequest.nodeId !== nodeId) return;
    const path = focusRequest.path[0] === "data" ? focusRequest.path.slice(1) : focusRequest.path;
    // A problem clicked in the Problems panel shows its message at the field at once.
    if (path.length > 0) onTouched(path);
    const focusField = (): boolean => {
      // Node-level issues (empty path) focus the title, the one field every node has.
      if (path.length === 0) document.querySelector<HTMLElement>('[data-testid="node-title-input"]')?.focus();
      for (let length = path.length; length >= 1; length--) {
        const element = document.getElementById(fieldDomId(focusRequest.nodeId, path.slice(0, length)));
        if (element) {
          if (document.activeElement === element) return true;
          element.closest("details")?.setAttribute("open", "");
          element.focus();
          element.scrollIntoView({ block: "center" });
          return false;
        }
      }
      return false;
    };
    // Keep at it for a second: selecting and centering the node can move focus after the first try.
    const deadline = performance.now() + 1000;
    let frame = 0;
    const step = () => {
      focusField();
      if (performance.now() < deadline) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [focusRequest, nodeId, onTouched]);

  if (!nodeId || !data || !context) {
    return (
      <aside className={cn(PANEL_CLASS_NAME, "flex items-center justify-center")} data-testid="config-panel-empty">
        <p className="m-0 text-center text-sm text-muted-foreground">Select one node to edit its configuration.</p>
      </aside>
    );
  }
  if (!definition) {
    return (
      <aside className={PANEL_CLASS_NAME} data-testid="config-panel">
        <Alert tone="destructive">
          <p>Unknown node type “{type}”. Delete the node or change the document.</p>
        </Alert>
      </aside>
    );
  }
  const schema = jsonSchemaOf(definition);
  const entries = Object.entries(schema.properties ?? {});
  const update = (key: string, value: unknown) =>
    store.getState().updateNodeConfig(nodeId, configPatch(definition.type, data, key, value), {
      coalesceKey: `${nodeId}:${key}`,
    });
  const renderField = ([key, property]: [string, JsonSchema]) => (
    <SchemaField
      key={key}
      name={key}
      schema={property}
      value={data[key]}
      path={[key]}
      context={context}
      required={schema.required?.includes(key)}
      onChange={(value) => update(key, value)}
    />
  );
  const nodeLevelIssues = issues.filter((issue) => issue.path.length === 0 || issue.path[0] !== "data");

  return (
    <aside className={cn(PANEL_CLASS_NAME, "flex flex-col gap-4")} data-testid="config-panel" data-node-id={nodeId}>
      {/* A viewer sees the whole configuration; a disabled fieldset turns off every control in it. */}
      <fieldset
        className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0"
        disabled={readOnly}
        data-testid="config-fieldset"
      >
        {/* Right padding: the inspector column's close button sits over this row. */}
        <header className="flex items-center gap-2 pr-8">
          <NodeTypeIcon type={definition.type} />
          <Input
            className="font-semibold"
            value={data.title}
            aria-label="Node title"
            data-testid="node-title-input"
            onChange={(event) =>
              store
                .getState()
                .updateNodeConfig(nodeId, { title: event.target.value }, { coalesceKey: `${nodeId}:title` })
            }
          />
        </header>
        <p className="-mt-1 mb-0 text-xs break-words text-muted-foreground">
          {definition.label} · id <code>{nodeId}</code> — reference outputs as <code>{`{{${nodeId}.field}}`}</code>
        </p>
        {nodeLevelIssues.map((issue) => (
          <p
            key={`${issue.code}-${issue.message}`}
            className="m-0 text-xs text-destructive"
            data-testid="node-level-issue"
          >
            {issue.message}
          </p>
        ))}
        {entries.filter(([key]) => !POLICY_KEYS.has(key)).map(renderField)}
        <details className="group/policy border-t border-border pt-2">
          <summary className="flex cursor-pointer list-none items-center gap-1 rounded-sm text-xs font-semibold text-muted-foreground select-none hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
            <ChevronRightIcon aria-hidden className="size-3.5 transition-transform group-open/policy:rotate-90" />
            Error handling, retries and timeout
          </summary>
          <div className="mt-3 flex flex-col gap-3">
            {entries.filter(([key]) => POLICY_KEYS.has(key)).map(renderField)}
          </div>
        </details>
      </fieldset>
      {definition.type !== "start" && <PinSection nodeId={nodeId} />}
      {definition.type !== "start" && !readOnly && (
        <Button className="w-fit" data-testid="run-single-node" onClick={() => onRunNode(nodeId)}>
          <PlayIcon /> Run this node only
        </Button>
      )}
    </aside>
  );
});

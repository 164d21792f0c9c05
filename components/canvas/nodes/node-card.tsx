"use client";

import { Handle, type NodeProps, Position } from "@xyflow/react";
import { PinIcon } from "lucide-react";
import type { CSSProperties, ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { NodeTypeIcon, nodeTypeStyle } from "@/components/ui/node-type-style";
import type { OutputPort } from "@/lib/workflow/node-definition";
import { useZoomedOut } from "../hooks/use-zoomed-out";
import type { CanvasNode } from "../store/types";
import { AddNodeMenu } from "./add-node-menu";
import { shortTitle } from "./node-formatting";
import { NodeIssues } from "./node-issues";
import { NodeRunBadge } from "./node-run-badge";
import type { NodeView } from "./use-node-view";

/** Props every per-type node component receives from React Flow. */
export type WorkflowNodeProps = NodeProps<CanvasNode>;

/** Vertical offset of the n-th of `count` source handles. */
export function handleOffset(index: number, count: number): string {
  return `${((index + 1) / (count + 1)) * 100}%`;
}

/** Props of the shared card. */
export interface NodeCardProps {
  /** Node id (React Flow's). */
  id: string;
  /** Workflow node type. */
  type: string;
  /** Title shown in the header. */
  title: string;
  /** Whether React Flow has the node selected (shows the "+" menus). */
  selected: boolean;
  /** The parsed view of the node's data. */
  view: NodeView;
  /** Per-type details drawn between the summary and the issues. */
  children?: ReactNode;
  /** Hides the definition's one-line summary when the details already say it. */
  hideSummary?: boolean;
}

/** One source handle with its "+" menu. */
function SourceHandle({
  nodeId,
  port,
  top,
  selected,
}: {
  nodeId: string;
  port: OutputPort;
  top: string;
  selected: boolean;
}) {
  return (
    <>
      <Handle type="source" position={Position.Right} id={port.id} style={{ top }} data-testid={`handle-${port.id}`} />
      {selected && <AddNodeMenu nodeId={nodeId} handleId={port.id} top={top} />}
    </>
  );
}

/**
 * The card every non-container node type is built on: icon, title, config summary, per-type
 * details, compile issues, live run status (status, duration, tokens), one target handle and
 * the source handles. A node with several ports (condition cases, a fail branch) lists them as
 * labelled rows, each with its handle beside its label, so labels never overlap the details.
 */
export function NodeCard({ id, type, title, selected, view, children, hideSummary }: NodeCardProps) {
  const { definition, summary, ports } = view;
  // Zoomed out the canvas shows titles and status colours only (globals.css): what it would hide
  // is not rendered at all, so a fitted 1,000-node load builds a few elements per card.
  const detailed = !useZoomedOut();
  return (
    <div
      className={cn(
        "wf-node w-[220px] rounded-lg border bg-card px-3 pt-2.5 pb-2.5 text-xs text-card-foreground shadow-node transition-[border-color,box-shadow]",
        selected
          ? "wf-node-selected border-primary ring-2 ring-primary/25"
          : "border-border hover:border-[color-mix(in_srgb,var(--node-color)_45%,var(--border))]",
      )}
      style={{ "--node-color": nodeTypeStyle(type).color } as CSSProperties}
      data-testid={`node-${type}`}
    >
      {definition?.hasInput !== false && <Handle type="target" position={Position.Left} id="in" />}
      <div className="flex min-w-0 items-center gap-2">
        <NodeTypeIcon type={type} size="md" glyph={detailed} />
        <NodeTitle title={title} />
        {view.pinned && (
          <span
            className="ml-auto inline-flex shrink-0 items-center gap-0.5 rounded-sm bg-info/12 px-1 text-2xs font-medium text-info"
            title={view.pinned === "run" ? "Outputs pinned from a run" : "Mock outputs pinned"}
            data-testid="node-pinned"
            data-source={view.pinned}
          >
            <PinIcon className="size-3" aria-hidden="true" />
            pinned
          </span>
        )}
      </div>
      {detailed && !hideSummary && <NodeSummary>{summary}</NodeSummary>}
      {detailed && children}
      <NodeIssues nodeId={id} />
      <NodeRunBadge nodeId={id} />
      {ports.length === 1 && <SourceHandle nodeId={id} port={ports[0]} top="50%" selected={selected} />}
      {ports.length > 1 && (
        <div className="wf-node-ports mt-2 -mr-3 border-t border-border pt-0.5" data-testid="node-ports">
          {ports.map((port) => (
            <div
              key={port.id}
              className="wf-node-port relative flex h-[18px] items-center justify-end pr-3"
              data-testid={`port-${port.id}`}
            >
              {detailed && (
                <span className="port-label max-w-[180px] truncate text-2xs text-muted-foreground">{port.label}</span>
              )}
              <SourceHandle nodeId={id} port={port} top="50%" selected={selected} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** The one-line config summary under the title (hidden zoomed out). */
export function NodeSummary({ children }: { children: ReactNode }) {
  return (
    <div className="wf-node-summary mt-1 truncate text-xs text-muted-foreground" data-testid="node-summary">
      {children}
    </div>
  );
}

/** A node's title; zoomed out, the canvas shows its `shortTitle` instead (see globals.css). */
export function NodeTitle({ title }: { title: string }) {
  return (
    <span
      className="wf-node-title min-w-0 truncate text-title font-semibold tracking-[-0.01em] text-foreground"
      data-testid="node-title"
      data-short={shortTitle(title)}
    >
      {title}
    </span>
  );
}

/** A short labelled detail line ("Model gpt-4o-mini"); `testId` names it for tests. */
export function NodeDetail({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="wf-node-detail mt-1 flex gap-1.5 overflow-hidden text-xs whitespace-nowrap" data-testid={testId}>
      <span className="shrink-0 text-muted-foreground">{label}</span>
      <span className="truncate font-medium text-foreground [&_code]:text-2xs">{children}</span>
    </div>
  );
}

/** Names as chips, at most `limit` of them and "+n" for the rest. */
export function NodeNameList({
  names,
  empty,
  testId,
  limit = 4,
}: {
  names: string[];
  empty: string;
  testId: string;
  limit?: number;
}) {
  if (names.length === 0)
    return (
      <div className="wf-node-names mt-1.5 text-2xs text-muted-foreground" data-testid={testId}>
        {empty}
      </div>
    );
  return (
    <div className="wf-node-names mt-1.5 flex flex-wrap gap-1 text-2xs" data-testid={testId}>
      {names.slice(0, limit).map((name, index) => (
        // Names may repeat while a user is typing; the index keeps keys unique.
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: order is the identity of a draft list
          key={`${index}-${name}`}
          className="max-w-[90px] truncate rounded-xs bg-muted px-1.5 py-px font-mono text-muted-foreground"
        >
          {name}
        </span>
      ))}
      {names.length > limit && <span className="text-muted-foreground">+{names.length - limit}</span>}
    </div>
  );
}

/** The model name from a `{ provider, model }` config value. */
export function modelNameOf(config: Record<string, unknown>): string {
  const model = config.model as { model?: unknown } | undefined;
  return typeof model?.model === "string" && model.model !== "" ? model.model : "no model";
}

/** The `name` of each entry of an array config value (start inputs, end outputs). */
export function namesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => String((entry as { name?: unknown })?.name ?? "")).map((name) => name || "(unnamed)");
}

import type { WorkflowEdge, WorkflowNode } from "../../workflow/document";
import type { DeclaredValueType } from "../../workflow/value-types";
import type { ReferenceKind, SecretSlot } from "../report";

/** A source node after the index pass: sanitized id, Dify type, raw data, enclosing iteration. */
export interface DifyNodeInfo {
  /** Id in the Trellis document. */
  id: string;
  /** Id in the Dify file. */
  sourceId: string;
  /** `data.type`. */
  type: string;
  /** `data` as written (each mapper validates what it reads). */
  data: Record<string, unknown>;
  /** Trellis id of the enclosing iteration, if any. */
  parentId?: string;
  /** Index in `workflow.graph.nodes`, for paths in messages. */
  index: number;
  /** The React Flow node as written (position, size). */
  position: { x: number; y: number };
  width?: number;
  height?: number;
}

/** What a node mapper produces. */
export interface NodeMapResult {
  /** The Trellis nodes; the first carries the source id, a second one is a helper (e.g. a router). */
  nodes: WorkflowNode[];
  /** Edges between the mapper's own nodes (e.g. classifier → router). */
  edges?: WorkflowEdge[];
  /** Set when the node could not be mapped; the mapper's nodes are then replaced by a placeholder. */
  unsupported?: string;
}

/** One mapper per Dify node type (`nodes/<type>.ts`). */
export interface NodeMapper {
  /** Maps the node; reads its data through zod and reports differences on the context. */
  map: (node: DifyNodeInfo, context: MapContext) => NodeMapResult;
  /** A Dify output path of this node (`["text"]`) as the Trellis path (`["text"]`, `["json", "x"]`). */
  outputPath?: (path: string[], node: DifyNodeInfo) => string[];
  /** A Dify source handle of this node as the Trellis node and handle edges leave from. */
  sourceHandle?: (handle: string, node: DifyNodeInfo) => { nodeId: string; handle: string };
  /** The Trellis node edges into this node arrive at, when a helper runs before it (default: the node). */
  targetNode?: (node: DifyNodeInfo) => string;
}

/** A reference to something the workspace must provide. */
export interface PendingReference {
  kind: ReferenceKind;
  name: string;
  nodeId: string;
  message: string;
}

/** A start input the mapping needs because the source reads `sys.*` or a conversation variable. */
export interface ImplicitInput {
  name: string;
  type: DeclaredValueType;
  description: string;
  default?: unknown;
}

/** The services each mapper gets: reference conversion and the report's collectors. */
export interface MapContext {
  /** The node being mapped (set by the driver). */
  readonly current: DifyNodeInfo;
  /** Converts a Dify template (`{{#node.field#}}`, `{{#sys.query#}}`) to a Trellis template. */
  template: (text: string) => string;
  /** Converts a Dify value selector to a Trellis selector. */
  selector: (selector: readonly string[]) => string[];
  /** Records a difference from the source on the current node. */
  change: (message: string) => void;
  /** Records a secret slot (the value itself is never passed here). */
  secret: (slot: Omit<SecretSlot, "nodeId">) => void;
  /** Records a workspace reference of the current node. */
  reference: (kind: ReferenceKind, name: string, message: string) => void;
  /** Id of the Trellis start node (sys.* and conversation variables become its inputs). */
  readonly startId: string;
  /** The app's mode: `advanced-chat` (a chatflow, with `sys.query` and memory) or `workflow`. */
  readonly appMode: string;
  /** Makes a fresh node id derived from the current one (`<id>-<suffix>`). */
  helperId: (suffix: string) => string;
  /** Dotted path of the current node's data in the file, for messages. */
  dataPath: (...segments: (string | number)[]) => string;
}

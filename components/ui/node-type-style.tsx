import {
  BotIcon,
  BracesIcon,
  CircleHelpIcon,
  CombineIcon,
  FileTextIcon,
  FlagIcon,
  GitBranchIcon,
  GlobeIcon,
  ListTodoIcon,
  type LucideIcon,
  PlayIcon,
  RepeatIcon,
  SparklesIcon,
  UserRoundIcon,
  WrenchIcon,
} from "lucide-react";
import { memo } from "react";
import type { NodeType } from "@/lib/workflow/node-definition";
import { cn } from "./cn";

/** The look of one node type: used by the palette, the node cards, the inspector and the timeline. */
export interface NodeTypeStyle {
  /** Its one icon. */
  icon: LucideIcon;
  /** Its one colour, as the CSS variable of the token (`var(--node-agent)`), for inline use. */
  color: string;
  /** Utilities for the icon chip: tinted background, coloured glyph (static strings so Tailwind sees them). */
  chipClassName: string;
}

/**
 * One icon and one colour per node type, defined once. The `Record` over `NodeType` makes a
 * missing type a compile error when lib/workflow gains one.
 */
export const NODE_TYPE_STYLES: Record<NodeType, NodeTypeStyle> = {
  start: { icon: PlayIcon, color: "var(--node-start)", chipClassName: "bg-node-start/14 text-node-start" },
  end: { icon: FlagIcon, color: "var(--node-end)", chipClassName: "bg-node-end/14 text-node-end" },
  llm: { icon: SparklesIcon, color: "var(--node-llm)", chipClassName: "bg-node-llm/14 text-node-llm" },
  agent: { icon: BotIcon, color: "var(--node-agent)", chipClassName: "bg-node-agent/14 text-node-agent" },
  planner: { icon: ListTodoIcon, color: "var(--node-planner)", chipClassName: "bg-node-planner/14 text-node-planner" },
  iteration: {
    icon: RepeatIcon,
    color: "var(--node-iteration)",
    chipClassName: "bg-node-iteration/14 text-node-iteration",
  },
  tool: { icon: WrenchIcon, color: "var(--node-tool)", chipClassName: "bg-node-tool/14 text-node-tool" },
  synthesizer: {
    icon: CombineIcon,
    color: "var(--node-synthesizer)",
    chipClassName: "bg-node-synthesizer/14 text-node-synthesizer",
  },
  condition: {
    icon: GitBranchIcon,
    color: "var(--node-condition)",
    chipClassName: "bg-node-condition/14 text-node-condition",
  },
  http: { icon: GlobeIcon, color: "var(--node-http)", chipClassName: "bg-node-http/14 text-node-http" },
  code: { icon: BracesIcon, color: "var(--node-code)", chipClassName: "bg-node-code/14 text-node-code" },
  template: {
    icon: FileTextIcon,
    color: "var(--node-template)",
    chipClassName: "bg-node-template/14 text-node-template",
  },
  "human-input": {
    icon: UserRoundIcon,
    color: "var(--node-human-input)",
    chipClassName: "bg-node-human-input/14 text-node-human-input",
  },
};

const UNKNOWN_STYLE: NodeTypeStyle = {
  icon: CircleHelpIcon,
  color: "var(--muted-foreground)",
  chipClassName: "bg-muted text-muted-foreground",
};

/** The style of a node type; a neutral one for a type this build does not know. */
export function nodeTypeStyle(type: string | undefined): NodeTypeStyle {
  return (type && NODE_TYPE_STYLES[type as NodeType]) || UNKNOWN_STYLE;
}

const CHIP_SIZES = {
  sm: { chip: "size-5 rounded-xs", icon: "size-3" },
  md: { chip: "size-6 rounded-sm", icon: "size-3.5" },
  lg: { chip: "size-8 rounded-md", icon: "size-4.5" },
} as const;

/**
 * A node type's icon in its coloured chip. Decorative (`aria-hidden`): the type's label or the
 * node's title next to it names it. The `node-icon` class lets the zoomed-out canvas drop the glyph.
 */
export const NodeTypeIcon = memo(function NodeTypeIcon({
  type,
  size = "md",
  className,
  glyph = true,
}: {
  type: string | undefined;
  size?: keyof typeof CHIP_SIZES;
  className?: string;
  /** False draws the coloured chip alone (the zoomed-out canvas hides the glyph: no svg to build). */
  glyph?: boolean;
}) {
  const style = nodeTypeStyle(type);
  const Icon = style.icon;
  const sizes = CHIP_SIZES[size];
  return (
    <span
      aria-hidden="true"
      data-node-type-icon={type}
      className={cn(
        "node-type-icon inline-flex shrink-0 items-center justify-center",
        sizes.chip,
        style.chipClassName,
        className,
      )}
    >
      {glyph && <Icon className={sizes.icon} strokeWidth={2.25} />}
    </span>
  );
});

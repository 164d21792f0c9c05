import { FlaskConicalIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { Badge } from "./badge";

/** Marks a run (or a model) answered by the offline demo model, so nobody mistakes it for a real one. */
export function DemoModelBadge({ children = "demo model", ...props }: ComponentProps<"span">) {
  return (
    <Badge tone="warning" title="Answers came from the offline demo model, not a real LLM" {...props}>
      <FlaskConicalIcon aria-hidden />
      {children}
    </Badge>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { workflowTemplates } from "@/lib/workflow/templates";

/**
 * The templates gallery: the seeded examples and smaller starting points, each runnable on the
 * offline demo model. "Use" creates the user's own workflow from the template and opens it.
 */
export function TemplateGallery({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const use = async (slug: string) => {
    const template = workflowTemplates.find((candidate) => candidate.slug === slug);
    if (!template) return;
    setBusy(slug);
    setError(null);
    const response = await fetch("/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: template.name, description: template.description, draft: template.document }),
    });
    setBusy(null);
    if (!response.ok) {
      setError(`The template could not be used (${response.status}).`);
      return;
    }
    const { id } = (await response.json()) as { id: string };
    router.push(`/workflows/${id}`);
  };

  return (
    <Dialog open={open} title="Templates" onClose={onClose} testId="template-gallery" wide>
      {error && (
        <p className="mt-0 text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
      <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 md:grid-cols-2" aria-label="Workflow templates">
        {workflowTemplates.map((template) => {
          const types = [...new Set(template.document.nodes.map((node) => node.type))].filter(
            (type) => type !== "start" && type !== "end",
          );
          return (
            <li
              key={template.slug}
              className="flex flex-col gap-2 rounded-lg border border-border bg-card p-3"
              data-testid="template-card"
              data-slug={template.slug}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="m-0 text-sm font-semibold">{template.name}</h3>
                <span className="flex gap-1" aria-hidden="true">
                  {types.map((type) => (
                    <NodeTypeIcon key={type} type={type} />
                  ))}
                </span>
              </div>
              <p className="m-0 flex-1 text-xs text-muted-foreground">{template.description}</p>
              <div>
                <Button
                  type="button"
                  variant="primary"
                  size="sm"
                  data-testid="use-template-card"
                  aria-label={`Use the ${template.name} template`}
                  disabled={busy !== null}
                  onClick={() => void use(template.slug)}
                >
                  {busy === template.slug ? "Creating…" : "Use"}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}

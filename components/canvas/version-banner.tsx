"use client";

import { EyeIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { useEditorStore } from "./store/editor-store-context";

/** Above the canvas while a published version is shown (`?version=N`): it is read-only, and how to leave. */
export function VersionBanner() {
  const version = useEditorStore((state) => state.viewingVersion);
  const workflowId = useEditorStore((state) => state.workflowId);
  const canEdit = useEditorStore((state) => state.canEditDraft);
  if (version === null) return null;
  return (
    <div
      className="flex shrink-0 items-center gap-3 border-b border-border bg-accent px-3 py-1.5 text-sm"
      role="status"
      data-testid="version-banner"
      data-version={version}
    >
      <EyeIcon className="size-4 shrink-0" aria-hidden="true" />
      <span className="flex-1 font-medium">Viewing v{version} — read-only</span>
      {canEdit && (
        <Button variant="primary" size="sm" asChild>
          {/* The draft editor restores it on arrival, as one undoable step. */}
          <Link href={`/workflows/${workflowId}?restore=${version}`} data-testid="version-restore-into-draft">
            Restore into draft
          </Link>
        </Button>
      )}
      <Button variant="outline" size="sm" asChild>
        <Link href={`/workflows/${workflowId}`} data-testid="version-back-to-draft">
          Back to draft
        </Link>
      </Button>
    </div>
  );
}

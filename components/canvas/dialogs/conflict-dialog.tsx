"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useEditorStore } from "../store/editor-store-context";

/** Shown when another tab saved first: reload theirs or overwrite with mine; never silent. */
export function ConflictDialog({ onReload, onOverwrite }: { onReload: () => void; onOverwrite: () => void }) {
  const conflict = useEditorStore((state) => state.saveState === "conflict");
  return (
    <Dialog
      open={conflict}
      title="This workflow was changed elsewhere"
      onClose={() => undefined}
      testId="conflict-dialog"
      footer={
        // Two long labels: they wrap onto two rows rather than overflow a narrow dialog.
        <div className="flex min-w-0 flex-1 flex-wrap justify-end gap-2">
          <Button data-testid="conflict-reload" onClick={onReload}>
            Reload their version (discard my changes)
          </Button>
          <Button variant="destructive" data-testid="conflict-overwrite" onClick={onOverwrite}>
            Overwrite with my version
          </Button>
        </div>
      }
    >
      <p className="m-0 text-sm">
        Someone (maybe you, in another tab) saved this workflow after you opened it. Your changes are not saved yet.
        Choose which version to keep.
      </p>
    </Dialog>
  );
}

"use client";

import { Dialog } from "@/components/ui/dialog";
import { SHORTCUTS } from "../hooks/use-keyboard-shortcuts";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** Lists every keyboard shortcut (opened with `?`). */
export function ShortcutsDialog() {
  const store = useEditorStoreApi();
  const open = useEditorStore((state) => state.dialog === "shortcuts");
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={() => store.getState().setDialog("none")}
      testId="shortcuts-dialog"
    >
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

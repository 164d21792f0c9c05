"use client";

import { Dialog } from "@/components/ui/dialog";
import { Kbd } from "@/components/ui/kbd";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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
      <Table>
        <TableHeadRow columns={[{ label: "Keys", className: "w-48" }, "Action"]} />
        <TableBody>
          {SHORTCUTS.map((shortcut) => (
            <TableRow key={shortcut.keys}>
              <TableCell className="py-1.5">
                {/* "Ctrl/⌘ + Shift + Z, Ctrl + Y": one chip per alternative. */}
                <span className="flex flex-wrap gap-1">
                  {shortcut.keys.split(", ").map((keys) => (
                    <Kbd key={keys}>{keys}</Kbd>
                  ))}
                </span>
              </TableCell>
              <TableCell className="py-1.5">{shortcut.action}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Dialog>
  );
}

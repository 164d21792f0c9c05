"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/** A delete confirmation: Cancel, and a danger button (“Delete”, or `confirmLabel`) that calls `onConfirm`. */
export function ConfirmDeleteDialog({
  open,
  title,
  onCancel,
  onConfirm,
  testId,
  confirmTestId,
  confirmLabel = "Delete",
  children,
}: {
  open: boolean;
  title: string;
  onCancel: () => void;
  onConfirm: () => void;
  testId: string;
  confirmTestId: string;
  /** The danger button's text when “Delete” is not the word (“Revoke”, “Remove”). */
  confirmLabel?: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      testId={testId}
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="destructive" data-testid={confirmTestId} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

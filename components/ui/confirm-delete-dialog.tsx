"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/** A delete confirmation: Cancel, and a danger Delete button that calls `onConfirm`. */
export function ConfirmDeleteDialog({
  open,
  title,
  onCancel,
  onConfirm,
  testId,
  confirmTestId,
  children,
}: {
  open: boolean;
  title: string;
  onCancel: () => void;
  onConfirm: () => void;
  testId: string;
  confirmTestId: string;
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
          <Button onClick={onCancel}>Cancel</Button>
          <Button variant="destructive" data-testid={confirmTestId} onClick={onConfirm}>
            Delete
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

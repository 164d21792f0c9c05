"use client";

import { Button } from "./button";

/** The red "Delete" text button of a list row; the confirmation is the caller's (ConfirmDeleteDialog). */
export function DeleteButton({
  testId,
  onClick,
  label = "Delete",
  ariaLabel,
}: {
  testId: string;
  onClick: () => void;
  /** The visible text ("Delete", "Remove", "Revoke"). */
  label?: string;
  /** A fuller accessible name when the row's other cells do not say what is deleted. */
  ariaLabel?: string;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      data-testid={testId}
      aria-label={ariaLabel}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

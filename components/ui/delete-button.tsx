"use client";

import { XIcon } from "lucide-react";
import { Button } from "./button";

/**
 * The red "Delete" text button of a list row (the confirmation is the caller's:
 * ConfirmDeleteDialog), or with `icon` the red × that removes a row being edited in a form.
 */
export function DeleteButton({
  testId,
  onClick,
  label = "Delete",
  ariaLabel,
  icon = false,
  size = "md",
}: {
  testId?: string;
  onClick: () => void;
  /** The visible text ("Delete", "Remove", "Revoke"); with `icon`, the accessible name unless `ariaLabel` says more. */
  label?: string;
  /** A fuller accessible name when the row's other cells do not say what is deleted. */
  ariaLabel?: string;
  /** An × instead of the text. */
  icon?: boolean;
  /** With `icon`: the field height it sits beside ("sm" next to compact table inputs). */
  size?: "sm" | "md";
}) {
  return (
    <Button
      variant="ghost"
      size={icon ? (size === "sm" ? "icon-sm" : "icon") : "sm"}
      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      data-testid={testId}
      aria-label={icon ? (ariaLabel ?? label) : ariaLabel}
      onClick={onClick}
    >
      {icon ? <XIcon /> : label}
    </Button>
  );
}

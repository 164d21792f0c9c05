"use client";

/** The red "Delete" text button of a list row; the confirmation is the caller's (ConfirmDeleteDialog). */
export function DeleteButton({ testId, onClick }: { testId: string; onClick: () => void }) {
  return (
    <button type="button" className="button-ghost danger" data-testid={testId} onClick={onClick}>
      Delete
    </button>
  );
}

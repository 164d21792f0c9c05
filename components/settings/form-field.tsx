import type { ReactNode } from "react";

/** A labelled form control with the server's message for that field under it. */
export function FormField({
  id,
  label,
  error,
  errorTestId,
  children,
}: {
  /** The control's id (the label points at it). */
  id: string;
  label: string;
  /** The problem the server reported for this field, if any. */
  error?: string;
  errorTestId: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error && (
        <p className="field-error" data-testid={errorTestId}>
          {error}
        </p>
      )}
    </div>
  );
}

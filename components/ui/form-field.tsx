import type { ReactNode } from "react";
import { FieldHint } from "./field-hint";
import { Input } from "./input";

/** A labelled form control with a quiet hint and the problem reported for that field under it. */
export function FormField({
  id,
  label,
  hint,
  error,
  errorTestId,
  children,
}: {
  /** The control's id (the label points at it). */
  id: string;
  /** The label's text (and marks such as a required star or the expected type). */
  label: ReactNode;
  /** What the field is for, under the control. */
  hint?: ReactNode;
  /** The problem the server reported for this field, if any. */
  error?: string;
  errorTestId: string;
  children: ReactNode;
}) {
  return (
    <div className="mb-3 flex flex-col gap-1.5">
      <label className="text-xs font-semibold text-foreground" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && <FieldHint>{hint}</FieldHint>}
      {error && (
        <p className="m-0 text-xs text-destructive" data-testid={errorTestId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled text input with the server's message for it: the common case of {@link FormField}. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  errorTestId,
  type = "text",
  placeholder,
  autoComplete,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  errorTestId: string;
  type?: "text" | "email" | "password";
  placeholder?: string;
  autoComplete?: string;
}) {
  return (
    <FormField id={id} label={label} error={error} errorTestId={errorTestId}>
      <Input
        id={id}
        type={type}
        placeholder={placeholder}
        autoComplete={autoComplete}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  );
}

import type { ComponentProps, ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";

/** One button of a form dialog's action row: a label, and the one it shows while its request runs. */
export interface DialogFormAction {
  /** The button text at rest (also its accessible name). */
  label: string;
  /** The text while `pending`; without it the label stays. */
  pendingLabel?: string;
  /** A request of this button runs: the button is disabled and shows `pendingLabel`. */
  pending?: boolean;
  /** Disabled for another reason (e.g. nothing checked yet). */
  disabled?: boolean;
  /** `data-testid` of the button. */
  testId: string;
  onClick: () => void;
}

/**
 * The action row of a form dialog (shadcn/ui pattern), for `Dialog`'s `footer`: an optional check
 * action ("Test", "Check"), Cancel when `onCancel` is given, and the primary submit button. A pending
 * action is disabled and says so in its text, so a double click never sends twice. `check.leading`
 * pushes the check action to the row's left edge, away from Cancel/submit.
 */
export function DialogFormFooter({
  check,
  onCancel,
  submit,
}: {
  check?: DialogFormAction & { leading?: boolean };
  onCancel?: () => void;
  submit: DialogFormAction;
}) {
  return (
    <>
      {check && <ActionButton action={check} variant="outline" className={check.leading ? "mr-auto" : undefined} />}
      {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      <ActionButton action={submit} variant="primary" />
    </>
  );
}

function ActionButton({
  action,
  variant,
  className,
}: {
  action: DialogFormAction;
  variant: "outline" | "primary";
  className?: string;
}) {
  return (
    <Button
      variant={variant}
      data-testid={action.testId}
      className={className}
      disabled={action.pending || action.disabled}
      onClick={action.onClick}
    >
      {action.pending && action.pendingLabel ? action.pendingLabel : action.label}
    </Button>
  );
}

/**
 * The refusal row of a form dialog: a destructive alert announced to screen readers
 * (`role="alert"`), a bold lead (`title`) and the server's message as children. Extra props
 * (`data-testid`, data attributes naming the field) go to the alert.
 */
export function DialogFormError({
  title,
  children,
  ...props
}: Omit<ComponentProps<typeof Alert>, "tone" | "role" | "title" | "children"> & {
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <Alert tone="destructive" role="alert" {...props}>
      <b>{title}</b> {children}
    </Alert>
  );
}

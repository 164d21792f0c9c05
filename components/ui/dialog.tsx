"use client";

import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, type ReactNode, useRef } from "react";
import { Button } from "./button";
import { cn } from "./cn";

/** Root of a Radix dialog (focus trap, Escape, scroll lock, aria-modal). */
export const DialogRoot = DialogPrimitive.Root;
/** The element that opens a {@link DialogRoot}. */
export const DialogTrigger = DialogPrimitive.Trigger;
/** A control that closes the dialog. */
export const DialogClose = DialogPrimitive.Close;

/** The dimmed layer behind a dialog or sheet. */
export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn("fixed inset-0 z-50 bg-black/45 data-[state=open]:animate-fade-in", className)}
      {...props}
    />
  );
}

/** The dialog box, portalled, with the overlay and a close button. */
export function DialogContent({
  className,
  children,
  showClose = true,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { showClose?: boolean }) {
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          "fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[min(520px,92vw)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-border bg-popover text-popover-foreground shadow-lg outline-none data-[state=open]:animate-pop-in",
          className,
        )}
        {...props}
      >
        {children}
        {showClose && (
          <DialogPrimitive.Close asChild>
            <Button variant="ghost" size="icon-sm" className="absolute top-2.5 right-2.5" aria-label="Close">
              <XIcon />
            </Button>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The title row of a dialog. */
export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-header"
      className={cn("flex flex-col gap-1 border-b border-border px-5 py-3.5 pr-12", className)}
      {...props}
    />
  );
}

/** The action row of a dialog. */
export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn("flex justify-end gap-2 border-t border-border px-5 py-3", className)}
      {...props}
    />
  );
}

/** The dialog's accessible name. */
export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      className={cn("m-0 text-lg font-semibold leading-6", className)}
      {...props}
    />
  );
}

/** The dialog's accessible description. */
export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn("m-0 text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

/**
 * A modal dialog with a title, a scrolling body and an optional footer: the app's original
 * `Dialog` API, now on Radix. Closed, nothing is rendered; Escape and the close button call
 * `onClose` (a click outside does not).
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  testId,
  wide,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  // Without a DialogTrigger, Radix returns focus nowhere on close: give it back to whatever opened
  // the dialog (a button, or a menu's trigger when opened from a menu item), as a native dialog does.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogRoot open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        data-testid={testId}
        onOpenAutoFocus={() => {
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          if (opener.current?.isConnected) {
            event.preventDefault();
            opener.current.focus();
          }
          opener.current = null;
        }}
        className={wide ? "w-[min(860px,94vw)]" : undefined}
        // The body is free-form; the title names the dialog.
        aria-describedby={undefined}
        // Like the native <dialog> it replaces: a stray click outside never throws away a half-filled form.
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
        </DialogHeader>
        <div data-slot="dialog-body" className="min-h-0 flex-1 overflow-auto px-5 py-4">
          {children}
        </div>
        {footer && <DialogFooter>{footer}</DialogFooter>}
      </DialogContent>
    </DialogRoot>
  );
}

"use client";

import { useEffect } from "react";
import { toast } from "sonner";

/**
 * Shows each new feedback message as a toast (the Toaster in the root layout). Pages keep the
 * message in the DOM too, visually hidden, where tests and the page's own flow read it.
 */
export function useToastMessage(message: string | null | undefined): void {
  useEffect(() => {
    if (message) toast(message);
  }, [message]);
}

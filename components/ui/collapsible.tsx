"use client";

import { Collapsible as CollapsiblePrimitive } from "radix-ui";

/** Root of a show/hide section. */
export const Collapsible = CollapsiblePrimitive.Root;
/** The toggle of a {@link Collapsible}. */
export const CollapsibleTrigger = CollapsiblePrimitive.Trigger;
/** The content a {@link Collapsible} shows or hides. */
export const CollapsibleContent = CollapsiblePrimitive.Content;

"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";
import type { ReactNode } from "react";

/**
 * Light/dark theme on the `class` of <html> (`.dark`), following `prefers-color-scheme` until the
 * user picks one (stored in localStorage `theme`). next-themes writes the class from an inline
 * script before the first paint, so there is no flash.
 *
 * Not `disableTransitionOnChange`: next-themes applies it on every mount too, adding a
 * `*, *::before, *::after` stylesheet and removing it in a timer, and each of the two restyles
 * every element of the page. On the editor the removal lands after the canvas has rendered: a
 * full style recalculation of a 1,000-node canvas (12,000 elements) in the middle of its load.
 * The theme menu suppresses transitions itself, only when the user switches (`theme-toggle.tsx`).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="system" enableSystem>
      {children}
    </NextThemesProvider>
  );
}

"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";
import type { ReactNode } from "react";

/**
 * Light/dark theme on the `class` of <html> (`.dark`), following `prefers-color-scheme` until the
 * user picks one (stored in localStorage `theme`). next-themes writes the class from an inline
 * script before the first paint, so there is no flash.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      {children}
    </NextThemesProvider>
  );
}

"use client";

import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { useTheme } from "next-themes";
import { useCallback, useEffect, useState } from "react";
import { Button } from "./button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "./dropdown-menu";

/**
 * Switches the theme with CSS transitions off until the new colours are on screen: otherwise every
 * element with a colour transition (buttons, cards) fades separately. next-themes would do this
 * on every page load as well (see theme-provider.tsx), so it is done here, on a switch only.
 */
function switchTheme(setTheme: (theme: string) => void, theme: string): void {
  const style = document.createElement("style");
  style.textContent = "*,*::before,*::after{transition:none!important}";
  document.head.appendChild(style);
  setTheme(theme);
  // next-themes sets the class in an effect after this render; two frames later it is painted.
  requestAnimationFrame(() => requestAnimationFrame(() => style.remove()));
}

/** The theme choices as radio items, for a menu of its own or another menu (the editor's "More"). */
export function ThemeMenuItems() {
  const { theme, setTheme } = useTheme();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const onValueChange = useCallback((value: string) => switchTheme(setTheme, value), [setTheme]);
  return (
    <>
      <DropdownMenuLabel>Theme</DropdownMenuLabel>
      <DropdownMenuRadioGroup value={mounted ? (theme ?? "system") : "system"} onValueChange={onValueChange}>
        <DropdownMenuRadioItem value="light" data-testid="theme-light">
          <SunIcon /> Light
        </DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="dark" data-testid="theme-dark">
          <MoonIcon /> Dark
        </DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="system" data-testid="theme-system">
          <MonitorIcon /> System
        </DropdownMenuRadioItem>
      </DropdownMenuRadioGroup>
    </>
  );
}

/** Header control: light, dark or the system's theme. */
export function ThemeToggle({ className }: { className?: string }) {
  const { resolvedTheme } = useTheme();
  // The theme is only known on the client; render the neutral icon until then (no hydration mismatch).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const dark = mounted && resolvedTheme === "dark";
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={className}
          aria-label="Theme"
          data-testid="theme-toggle"
          data-theme={mounted ? resolvedTheme : undefined}
        >
          {dark ? <MoonIcon /> : <SunIcon />}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-36">
        <ThemeMenuItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

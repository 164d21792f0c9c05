"use client";

import { LayoutGridIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { SETTINGS_SECTIONS } from "./settings-sections";

const linkClassName =
  "flex h-8 items-center gap-2 rounded-md px-2.5 text-sm font-medium whitespace-nowrap no-underline transition-colors [&_svg]:size-4 [&_svg]:shrink-0";

/** The settings sections as a side nav (a row on narrow screens), the current one marked. */
export function SettingsNav() {
  const pathname = usePathname() ?? "";
  const entries = [
    { href: "/settings", label: "Overview", icon: LayoutGridIcon, navTestId: undefined },
    ...SETTINGS_SECTIONS,
  ];
  return (
    <nav
      aria-label="Settings"
      data-testid="settings-nav"
      className="flex gap-0.5 overflow-x-auto md:w-52 md:shrink-0 md:flex-col md:overflow-visible"
    >
      {entries.map((entry) => {
        const active = pathname === entry.href;
        const Icon = entry.icon;
        return (
          <Link
            key={entry.href}
            href={entry.href}
            data-testid={entry.navTestId}
            aria-current={active ? "page" : undefined}
            className={cn(
              linkClassName,
              active
                ? "bg-accent text-accent-foreground"
                : "text-muted-foreground hover:bg-accent hover:text-foreground",
            )}
          >
            <Icon aria-hidden="true" />
            {entry.label}
          </Link>
        );
      })}
    </nav>
  );
}

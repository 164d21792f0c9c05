"use client";

import {
  KeyRoundIcon,
  LayoutGridIcon,
  LockKeyholeIcon,
  type LucideIcon,
  ServerIcon,
  UsersIcon,
  WrenchIcon,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/** A settings section: where it lives, what it is called, its icon and what it is for. */
export interface SettingsSection {
  href: string;
  label: string;
  icon: LucideIcon;
  description: string;
  /** Test id of the nav entry (kept from the earlier top nav). */
  navTestId?: string;
  /** Test id of the card on the settings home page. */
  cardTestId: string;
}

/** Every settings section, in nav order (the home page's cards use the same list). */
export const SETTINGS_SECTIONS: SettingsSection[] = [
  {
    href: "/settings/tools",
    label: "Tools",
    icon: WrenchIcon,
    description: "Import OpenAPI tool sets and connect MCP servers for this workspace.",
    navTestId: "settings-nav-tools",
    cardTestId: "settings-tools-link",
  },
  {
    href: "/settings/providers",
    label: "Model providers",
    icon: ServerIcon,
    description: "Add OpenAI-compatible endpoints (OpenAI, Azure, Ollama, vLLM, …) and their models.",
    navTestId: "settings-nav-providers",
    cardTestId: "settings-providers-link",
  },
  {
    href: "/settings/credentials",
    label: "Credentials",
    icon: LockKeyholeIcon,
    description: "Tokens and API keys the HTTP request node sends, stored encrypted.",
    navTestId: "settings-nav-credentials",
    cardTestId: "settings-credentials-link",
  },
  {
    href: "/settings/api-keys",
    label: "API keys",
    icon: KeyRoundIcon,
    description: "Create and revoke the keys that call published workflows over HTTP.",
    navTestId: "settings-nav-api-keys",
    cardTestId: "settings-api-keys-link",
  },
  {
    href: "/settings/members",
    label: "Members",
    icon: UsersIcon,
    description: "Add people to the workspace as owners, admins, editors or viewers.",
    navTestId: "settings-nav-members",
    cardTestId: "settings-members-link",
  },
];

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

"use client";

import { CircleUserRoundIcon, HistoryIcon, ListChecksIcon, SettingsIcon, WorkflowIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useWorkspaces, WorkspaceSwitcher } from "./workspace-switcher";

/** The editor (`/workflows/:id`) has its own toolbar; the login and invite pages stand alone. */
export function isBareRoute(pathname: string): boolean {
  return pathname === "/login" || /^\/invite\/[^/]+$/.test(pathname) || /^\/workflows\/[^/]+$/.test(pathname);
}

const NAV = [
  { href: "/workflows", label: "Workflows", icon: WorkflowIcon, testId: "nav-workflows" },
  { href: "/runs", label: "Runs", icon: HistoryIcon, testId: "nav-runs" },
  { href: "/evaluations", label: "Evaluations", icon: ListChecksIcon, testId: "nav-evaluations" },
  { href: "/settings", label: "Settings", icon: SettingsIcon, testId: "nav-settings", settings: true },
] as const;

/** The app's top bar on every page but the editor and the login page: mark, workspace switcher, sections, theme, account. */
export function AppHeader() {
  const pathname = usePathname() ?? "/";
  if (isBareRoute(pathname)) return null;
  return <HeaderBar pathname={pathname} />;
}

function HeaderBar({ pathname }: { pathname: string }) {
  const workspaces = useWorkspaces();
  // Settings are for owners and admins: nobody else is offered a page that would only refuse them.
  const manageSettings = workspaces?.find((workspace) => workspace.current)?.manageSettings === true;
  return (
    <header
      className="sticky top-0 z-40 flex h-12 shrink-0 items-center gap-4 border-b border-border bg-card/85 px-4 backdrop-blur"
      data-testid="app-header"
    >
      <Link href="/workflows" aria-label="Trellis home" className="rounded-md no-underline">
        <Logo />
      </Link>
      <WorkspaceSwitcher workspaces={workspaces} />
      <nav aria-label="Main" className="flex items-center gap-0.5">
        {NAV.filter((item) => !("settings" in item) || manageSettings).map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          const Icon = item.icon;
          return (
            <Link
              key={item.href}
              href={item.href}
              data-testid={item.testId}
              aria-current={active ? "page" : undefined}
              className={cn(
                "inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium no-underline transition-colors",
                active
                  ? "bg-accent text-accent-foreground"
                  : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {item.label}
            </Link>
          );
        })}
      </nav>
      <div className="ml-auto flex items-center gap-1">
        <ThemeToggle />
        <Link
          href="/account"
          aria-label="Account"
          data-testid="nav-account"
          className="inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground"
        >
          <CircleUserRoundIcon className="size-5" aria-hidden="true" />
        </Link>
      </div>
    </header>
  );
}

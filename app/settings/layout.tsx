import Link from "next/link";
import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/settings-nav";
import { buttonVariants } from "@/components/ui/button";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";

export const dynamic = "force-dynamic";

/**
 * Shared frame of the settings pages: a side nav between the sections, the section on the right.
 * Every section is for owners and admins; anyone else gets this page's answer instead of an error.
 */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  if (!can(await requirePagePrincipal(), "settings.manage")) {
    return (
      <main className="mx-auto w-full max-w-2xl px-6 py-10" data-testid="settings-forbidden">
        <h1 className="m-0 text-2xl font-semibold">Settings</h1>
        <p className="text-muted-foreground">
          Settings are for workspace owners and admins. Ask one of them to change your role.
        </p>
        <Link href="/workflows" className={buttonVariants({ variant: "outline" })}>
          ← Workflows
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-6 py-6 md:flex-row">
      <SettingsNav />
      <div className="min-w-0 flex-1">{children}</div>
    </main>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";
import "./settings.css";

export const dynamic = "force-dynamic";

/**
 * Shared frame of the settings pages: navigation back to the workflows and between sections.
 * Every section is for owners and admins; anyone else gets this page's answer instead of an error.
 */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  if (!can(await requirePagePrincipal(), "settings.manage")) {
    return (
      <main className="page" data-testid="settings-forbidden">
        <h1>Settings</h1>
        <p>Settings are for workspace owners and admins. Ask one of them to change your role.</p>
        <Link href="/workflows" className="button">
          ← Workflows
        </Link>
      </main>
    );
  }
  return (
    <main className="page">
      <nav className="settings-nav" data-testid="settings-nav">
        <Link href="/workflows" className="settings-nav-back">
          ← Workflows
        </Link>
        <Link href="/settings">Settings</Link>
        <Link href="/settings/tools" data-testid="settings-nav-tools">
          Tools
        </Link>
        <Link href="/settings/providers" data-testid="settings-nav-providers">
          Model providers
        </Link>
        <Link href="/settings/credentials" data-testid="settings-nav-credentials">
          Credentials
        </Link>
        <Link href="/settings/api-keys" data-testid="settings-nav-api-keys">
          API keys
        </Link>
        <Link href="/settings/members" data-testid="settings-nav-members">
          Members
        </Link>
      </nav>
      {children}
    </main>
  );
}

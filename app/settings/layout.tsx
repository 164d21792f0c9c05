import Link from "next/link";
import type { ReactNode } from "react";
import "./settings.css";

/** Shared frame of the settings pages: navigation back to the workflows and between sections. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
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
        <Link href="/settings/members" data-testid="settings-nav-members">
          Members
        </Link>
      </nav>
      {children}
    </main>
  );
}

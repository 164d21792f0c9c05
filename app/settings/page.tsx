import { ChevronRightIcon } from "lucide-react";
import Link from "next/link";
import { SETTINGS_SECTIONS } from "@/components/settings/settings-nav";

/** Settings home: one card per section. */
export default function SettingsPage() {
  return (
    <>
      <header className="mb-4">
        <h1 className="m-0 text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="m-0 mt-1 text-sm text-muted-foreground">Workspace-wide tools, models, secrets and people.</p>
      </header>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(260px,1fr))] gap-3">
        {SETTINGS_SECTIONS.map((section) => {
          const Icon = section.icon;
          return (
            <Link
              key={section.href}
              href={section.href}
              data-testid={section.cardTestId}
              className="group flex items-start gap-3 rounded-lg border border-border bg-card p-4 text-foreground no-underline shadow-xs transition-colors hover:border-primary/50 hover:bg-accent/40"
            >
              <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
                <Icon className="size-4.5" aria-hidden="true" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-center justify-between gap-2 text-base font-semibold">
                  {section.label}
                  <ChevronRightIcon
                    className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                    aria-hidden="true"
                  />
                </span>
                <span className="mt-0.5 block text-sm text-muted-foreground">{section.description}</span>
              </span>
            </Link>
          );
        })}
      </div>
    </>
  );
}

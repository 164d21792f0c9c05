import { SettingsIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";

/**
 * The header link to the settings pages (tools and model providers), styled like the other
 * header buttons. Drop it into a page header's actions, e.g. the workflow list's.
 */
export function SettingsLink() {
  return (
    <Link href="/settings" className={buttonVariants({ variant: "outline" })} data-testid="settings-link">
      <SettingsIcon aria-hidden="true" /> Settings
    </Link>
  );
}

import Link from "next/link";

/**
 * The header link to the settings pages (tools and model providers), styled like the other
 * header buttons. Drop it into a page header's `.row`, e.g. the workflow list's.
 */
export function SettingsLink() {
  return (
    <Link href="/settings" className="button" data-testid="settings-link">
      Settings
    </Link>
  );
}

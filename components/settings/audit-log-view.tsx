import Link from "next/link";
import { Button, buttonVariants } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { AuditEntryView, AuditQueryInput } from "@/lib/contracts/audit-entry";

/** The filters that travel in the page's URL (and the export link), without the cursor. */
type AuditFilters = Pick<AuditQueryInput, "action" | "actor" | "from" | "to">;

function queryString(filters: AuditFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set("cursor", cursor);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** "api_key.created" → "api key created", for people; the code stays in a title. */
function describeAction(action: string): string {
  return action.replaceAll("_", " ").replace(".", " ");
}

function describeTarget(entry: AuditEntryView): string {
  if (!entry.target) return "—";
  return `${entry.target.type.replaceAll("_", " ")} ${entry.target.label ?? entry.target.id}`;
}

/**
 * The workspace's audit log: who did what to what, when and from where. The filter form is a
 * plain GET form, so the filters live in the URL (shareable, back button) and work without
 * scripts; the export downloads the same filters as JSON Lines.
 */
export function AuditLogView({
  entries,
  filters,
  nextCursor,
}: {
  entries: AuditEntryView[];
  filters: AuditFilters;
  nextCursor: string | null;
}) {
  return (
    <div data-testid="audit-log">
      <header className="page-header">
        <h1>Audit log</h1>
      </header>
      <p className="muted">
        Changes to members, API keys, credentials, published workflows and settings, newest first. Entries never hold
        secret values.
      </p>
      <form method="get" className="settings-form" data-testid="audit-filters" aria-label="Filter the audit log">
        <FormField
          id="audit-action"
          label="Action (name or prefix such as credential.)"
          errorTestId="audit-error-action"
        >
          <Input id="audit-action" name="action" defaultValue={filters.action ?? ""} placeholder="credential." />
        </FormField>
        <FormField id="audit-actor" label="Actor id" errorTestId="audit-error-actor">
          <Input id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} />
        </FormField>
        <FormField id="audit-from" label="From" errorTestId="audit-error-from">
          <Input id="audit-from" name="from" type="date" defaultValue={filters.from?.slice(0, 10) ?? ""} />
        </FormField>
        <FormField id="audit-to" label="To" errorTestId="audit-error-to">
          <Input id="audit-to" name="to" type="date" defaultValue={filters.to?.slice(0, 10) ?? ""} />
        </FormField>
        <div className="flex gap-2">
          <Button type="submit" data-testid="audit-apply">
            Apply filters
          </Button>
          <Link href="/settings/audit" className={buttonVariants({ variant: "outline" })} data-testid="audit-clear">
            Clear
          </Link>
          <a
            href={`/api/audit/export${queryString(filters)}`}
            className={buttonVariants({ variant: "outline" })}
            data-testid="audit-export"
            download
          >
            Export (JSONL)
          </a>
        </div>
      </form>
      {entries.length === 0 ? (
        <p className="muted" data-testid="audit-empty">
          No entries match.
        </p>
      ) : (
        <table className="table" data-testid="audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Target</th>
              <th scope="col">From where</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="audit-row" data-id={entry.id} data-action={entry.action}>
                <td>
                  <time dateTime={entry.createdAt}>
                    {new Date(entry.createdAt).toISOString().replace("T", " ").slice(0, 19)} UTC
                  </time>
                </td>
                <td>{entry.actor.label}</td>
                <td title={entry.action}>
                  <code>{entry.action}</code>
                  <span className="sr-only"> ({describeAction(entry.action)})</span>
                </td>
                <td>{describeTarget(entry)}</td>
                <td>{entry.clientAddress ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextCursor && (
        <Link
          href={`/settings/audit${queryString(filters, nextCursor)}`}
          className={buttonVariants({ variant: "outline" })}
          data-testid="audit-next"
        >
          Older entries
        </Link>
      )}
    </div>
  );
}

import { DownloadIcon } from "lucide-react";
import Link from "next/link";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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

/** A stored instant as its UTC day and time of day ("2026-12-02", "13:28:56"). */
function utc(instant: string): { day: string; time: string } {
  const iso = new Date(instant).toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 19) };
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
    <div data-testid="audit-log" className="flex flex-col gap-4">
      <PageHeader
        title="Audit log"
        description="Changes to members, API keys, credentials, published workflows and settings, newest first. Entries never hold secret values."
      />
      <Card>
        <CardContent>
          <form method="get" data-testid="audit-filters" aria-label="Filter the audit log">
            <div className="grid gap-x-3 sm:grid-cols-2 lg:grid-cols-4">
              <FormField id="audit-action" label="Action or prefix" errorTestId="audit-error-action">
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
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="primary" data-testid="audit-apply">
                Apply filters
              </Button>
              <Link href="/settings/audit" className={buttonVariants({ variant: "outline" })} data-testid="audit-clear">
                Clear
              </Link>
              <a
                href={`/api/audit/export${queryString(filters)}`}
                className={buttonVariants({ variant: "outline", className: "sm:ml-auto" })}
                data-testid="audit-export"
                download
              >
                <DownloadIcon /> Export (JSONL)
              </a>
            </div>
          </form>
        </CardContent>
      </Card>
      {entries.length === 0 ? (
        <EmptyState data-testid="audit-empty">No entries match.</EmptyState>
      ) : (
        <Table data-testid="audit-table">
          <TableHeadRow columns={["When", "Who", "What", "Target", "From where"]} />
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id} data-testid="audit-row" data-id={entry.id} data-action={entry.action}>
                <TableCell className="whitespace-nowrap tabular-nums">
                  <time dateTime={entry.createdAt} className="flex flex-col">
                    <span>{utc(entry.createdAt).day}</span>
                    <span className="text-xs text-muted-foreground">{utc(entry.createdAt).time} UTC</span>
                  </time>
                </TableCell>
                <TableCell className="wrap-anywhere">{entry.actor.label}</TableCell>
                <TableCell title={entry.action}>
                  <code className="text-xs">{entry.action}</code>
                  <span className="sr-only"> ({describeAction(entry.action)})</span>
                </TableCell>
                <TableCell className="wrap-anywhere">{describeTarget(entry)}</TableCell>
                <TableCell className="whitespace-nowrap">{entry.clientAddress ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {nextCursor && (
        <Link
          href={`/settings/audit${queryString(filters, nextCursor)}`}
          className={buttonVariants({ variant: "outline", className: "self-start" })}
          data-testid="audit-next"
        >
          Older entries
        </Link>
      )}
    </div>
  );
}

import { Alert } from "@/components/ui/alert";

/** What an evaluation page shows before its data is there: the load's error, or "Loading…". */
export function LoadStatus({ error }: { error: string | null | undefined }) {
  if (error)
    return (
      <Alert tone="destructive" role="alert">
        {error}
      </Alert>
    );
  return <p className="m-0 text-sm text-muted-foreground">Loading…</p>;
}

-- A search page without filters walks the search rows alone in start order (lib/db/run-history.ts),
-- so each search row carries its run's start, which never changes. Nullable, so adding it does not
-- rewrite the table. The index is the page order (start, then run id) within a workspace.
ALTER TABLE "RunSearch" ADD COLUMN "startedAt" TIMESTAMP(3);
UPDATE "RunSearch" SET "startedAt" = "Run"."startedAt" FROM "Run" WHERE "Run"."id" = "RunSearch"."runId";
CREATE INDEX "RunSearch_workspaceId_startedAt_idx" ON "RunSearch"("workspaceId", "startedAt", "runId");

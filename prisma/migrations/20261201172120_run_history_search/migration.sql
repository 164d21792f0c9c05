-- AlterTable
ALTER TABLE "Run" ADD COLUMN "apiKeyId" TEXT;
ALTER TABLE "Run" ADD COLUMN "durationMs" INTEGER;

-- CreateTable
CREATE TABLE "RetentionPolicy" (
    "workspaceId" TEXT NOT NULL PRIMARY KEY,
    "maxAgeDays" INTEGER DEFAULT 30,
    "maxCount" INTEGER,
    "keepAnnotatedDays" INTEGER,
    "lastPrunedAt" DATETIME,
    "lastPrunedRows" INTEGER NOT NULL DEFAULT 0,
    "claimedUntil" DATETIME,
    "claimedBy" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "RetentionPolicy_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RetentionPolicy_claimedUntil_idx" ON "RetentionPolicy"("claimedUntil");

-- CreateIndex
CREATE INDEX "Run_workspaceId_status_startedAt_idx" ON "Run"("workspaceId", "status", "startedAt");

-- CreateIndex
CREATE INDEX "Run_workspaceId_trigger_startedAt_idx" ON "Run"("workspaceId", "trigger", "startedAt");

-- CreateIndex
CREATE INDEX "Run_workspaceId_apiKeyId_startedAt_idx" ON "Run"("workspaceId", "apiKeyId", "startedAt");

-- CreateIndex
CREATE INDEX "Run_workspaceId_versionId_startedAt_idx" ON "Run"("workspaceId", "versionId", "startedAt");

-- CreateIndex
CREATE INDEX "Run_workspaceId_durationMs_idx" ON "Run"("workspaceId", "durationMs");

-- CreateIndex
CREATE INDEX "Run_workspaceId_cost_idx" ON "Run"("workspaceId", "cost");

-- Full-text search over a run's inputs, outputs and errors (written when the run ends, by the
-- run recorder, see lib/db/run-search.ts). FTS5 is not a Prisma model, so it lives here only.
CREATE VIRTUAL TABLE "RunSearch" USING fts5("runId" UNINDEXED, "workspaceId" UNINDEXED, "content", tokenize = 'unicode61 remove_diacritics 2');

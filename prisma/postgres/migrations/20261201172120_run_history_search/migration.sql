-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "apiKeyId" TEXT,
ADD COLUMN     "durationMs" INTEGER;

-- CreateTable
CREATE TABLE "RetentionPolicy" (
    "workspaceId" TEXT NOT NULL,
    "maxAgeDays" INTEGER DEFAULT 30,
    "maxCount" INTEGER,
    "keepAnnotatedDays" INTEGER,
    "lastPrunedAt" TIMESTAMP(3),
    "lastPrunedRows" INTEGER NOT NULL DEFAULT 0,
    "claimedUntil" TIMESTAMP(3),
    "claimedBy" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RetentionPolicy_pkey" PRIMARY KEY ("workspaceId")
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

-- AddForeignKey
ALTER TABLE "RetentionPolicy" ADD CONSTRAINT "RetentionPolicy_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text search over a run's inputs, outputs and errors (written when the run ends, by the
-- run recorder, see lib/db/run-search.ts). Not a Prisma model: the tsvector column and its GIN
-- index live here only.
CREATE TABLE "RunSearch" (
    "runId" TEXT NOT NULL PRIMARY KEY REFERENCES "Run"("id") ON DELETE CASCADE,
    "workspaceId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "document" TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', "content")) STORED
);
CREATE INDEX "RunSearch_document_idx" ON "RunSearch" USING GIN ("document");

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "rerunOfId" TEXT;

-- CreateTable
CREATE TABLE "RunReview" (
    "runId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "rating" TEXT,
    "ratedBy" TEXT,
    "reviewedAt" TIMESTAMP(3),
    "reviewedBy" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RunReview_pkey" PRIMARY KEY ("runId")
);

-- CreateTable
CREATE TABLE "RunComment" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "nodeId" TEXT,
    "nodeRunId" TEXT,
    "mentions" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunLabel" (
    "runId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunLabel_pkey" PRIMARY KEY ("runId","label")
);

-- CreateIndex
CREATE INDEX "RunReview_workspaceId_reviewedAt_idx" ON "RunReview"("workspaceId", "reviewedAt");

-- CreateIndex
CREATE INDEX "RunComment_runId_createdAt_idx" ON "RunComment"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "RunComment_workspaceId_createdAt_idx" ON "RunComment"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "RunLabel_workspaceId_label_idx" ON "RunLabel"("workspaceId", "label");

-- AddForeignKey
ALTER TABLE "RunReview" ADD CONSTRAINT "RunReview_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunComment" ADD CONSTRAINT "RunComment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunLabel" ADD CONSTRAINT "RunLabel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "Run_workspaceId_workflowId_startedAt_idx" ON "Run"("workspaceId", "workflowId", "startedAt");

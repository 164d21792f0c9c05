-- CreateTable
CREATE TABLE "WorkflowTag" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT 'gray',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowTag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowTagLink" (
    "workflowId" TEXT NOT NULL,
    "tagId" TEXT NOT NULL,

    CONSTRAINT "WorkflowTagLink_pkey" PRIMARY KEY ("workflowId","tagId")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowTag_workspaceId_name_key" ON "WorkflowTag"("workspaceId", "name");

-- CreateIndex
CREATE INDEX "WorkflowTagLink_tagId_idx" ON "WorkflowTagLink"("tagId");

-- AddForeignKey
ALTER TABLE "WorkflowTag" ADD CONSTRAINT "WorkflowTag_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowTagLink" ADD CONSTRAINT "WorkflowTagLink_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowTagLink" ADD CONSTRAINT "WorkflowTagLink_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "WorkflowTag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "WorkflowTag" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT 'gray',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WorkflowTag_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkflowTagLink" (
    "workflowId" TEXT NOT NULL,
    "tagId" TEXT NOT NULL,

    PRIMARY KEY ("workflowId", "tagId"),
    CONSTRAINT "WorkflowTagLink_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkflowTagLink_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "WorkflowTag" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowTag_workspaceId_name_key" ON "WorkflowTag"("workspaceId", "name");

-- CreateIndex
CREATE INDEX "WorkflowTagLink_tagId_idx" ON "WorkflowTagLink"("tagId");

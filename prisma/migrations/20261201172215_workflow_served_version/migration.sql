-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "servedVersion" INTEGER;

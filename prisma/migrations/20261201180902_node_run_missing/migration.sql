-- AlterTable
ALTER TABLE "NodeRun" ADD COLUMN "missing" JSONB;

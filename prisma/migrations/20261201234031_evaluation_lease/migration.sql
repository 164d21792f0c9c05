-- AlterTable
ALTER TABLE "EvaluationRun" ADD COLUMN "leaseExpiresAt" DATETIME;
ALTER TABLE "EvaluationRun" ADD COLUMN "runnerId" TEXT;

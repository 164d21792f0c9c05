-- AlterTable
ALTER TABLE "EvaluationRun" ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "runnerId" TEXT;

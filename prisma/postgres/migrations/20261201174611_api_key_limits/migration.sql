-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "allowedOrigins" JSONB,
ADD COLUMN     "rateLimitPerMinute" INTEGER,
ADD COLUMN     "workflowIds" JSONB;

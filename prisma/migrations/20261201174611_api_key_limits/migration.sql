-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "allowedOrigins" JSONB;
ALTER TABLE "ApiKey" ADD COLUMN "rateLimitPerMinute" INTEGER;
ALTER TABLE "ApiKey" ADD COLUMN "workflowIds" JSONB;

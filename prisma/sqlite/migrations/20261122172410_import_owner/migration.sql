-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN "importHeartbeatAt" DATETIME;
ALTER TABLE "Dataset" ADD COLUMN "importOwner" TEXT;

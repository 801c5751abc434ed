-- AlterTable
ALTER TABLE "Run" ADD COLUMN "leaseExpiresAt" DATETIME;
ALTER TABLE "Run" ADD COLUMN "leaseOwner" TEXT;

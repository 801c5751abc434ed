-- AlterTable
ALTER TABLE "HumanLabel" ADD COLUMN "statedBy" TEXT;

-- AlterTable
ALTER TABLE "HumanLabelRevision" ADD COLUMN "statedBy" TEXT;

-- AlterTable
ALTER TABLE "HumanLabel" ADD COLUMN "reason" TEXT;

-- AlterTable
ALTER TABLE "HumanLabelRevision" ADD COLUMN "reason" TEXT;

-- AlterTable
ALTER TABLE "LabelImportStaging" ADD COLUMN "reason" TEXT;

-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN "inputCoverage" TEXT;

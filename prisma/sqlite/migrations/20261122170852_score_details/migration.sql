-- AlterTable
ALTER TABLE "JudgmentItem" ADD COLUMN "details" TEXT;

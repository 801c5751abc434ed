-- AlterTable
ALTER TABLE "CustomJudge" ADD COLUMN     "alignment" TEXT;

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "attempts" INTEGER;
ALTER TABLE "Generation" ADD COLUMN "costUsd" REAL;

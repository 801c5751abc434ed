-- AlterTable
ALTER TABLE "PairwiseComparison" ADD COLUMN "budgetCalls" INTEGER;
ALTER TABLE "PairwiseComparison" ADD COLUMN "budgetTokens" INTEGER;
ALTER TABLE "PairwiseComparison" ADD COLUMN "budgetUsd" REAL;

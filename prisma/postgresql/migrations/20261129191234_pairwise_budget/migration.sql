-- AlterTable
ALTER TABLE "PairwiseComparison" ADD COLUMN     "budgetCalls" INTEGER,
ADD COLUMN     "budgetTokens" INTEGER,
ADD COLUMN     "budgetUsd" DOUBLE PRECISION;

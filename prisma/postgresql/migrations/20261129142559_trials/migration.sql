/*
  Warnings:

  - A unique constraint covering the columns `[runId,rowId,trial]` on the table `Generation` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[runId,rowId,metric,trial]` on the table `JudgmentItem` will be added. If there are existing duplicate values, this will fail.

*/
-- DropIndex
DROP INDEX "Generation_runId_rowId_key";

-- DropIndex
DROP INDEX "JudgmentItem_metric_sort_idx";

-- DropIndex
DROP INDEX "JudgmentItem_pairing_idx";

-- DropIndex
DROP INDEX "JudgmentItem_runId_metric_status_passed_rowNumber_idx";

-- DropIndex
DROP INDEX "JudgmentItem_runId_rowId_metric_key";

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN     "trial" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "JudgmentItem" ADD COLUMN     "trial" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "Generation_runId_rowId_trial_key" ON "Generation"("runId", "rowId", "trial");

-- CreateIndex
CREATE INDEX "JudgmentItem_pairing_idx" ON "JudgmentItem"("runId", "rowId", "metric", "trial", "status", "rating", "score", "passed");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_metric_trial_status_passed_rowNumber_idx" ON "JudgmentItem"("runId", "metric", "trial", "status", "passed", "rowNumber");

-- CreateIndex
CREATE INDEX "JudgmentItem_metric_sort_idx" ON "JudgmentItem"("runId", "metric", "trial", "status", "passed", "score", "rowNumber");

-- CreateIndex
CREATE UNIQUE INDEX "JudgmentItem_runId_rowId_metric_trial_key" ON "JudgmentItem"("runId", "rowId", "metric", "trial");

-- DropIndex
DROP INDEX "JudgmentItem_runId_metric_status_rating_idx";

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_metric_status_rating_score_passed_idx" ON "JudgmentItem"("runId", "metric", "status", "rating", "score", "passed");

-- CreateIndex
CREATE INDEX "JudgmentItem_pairing_idx" ON "JudgmentItem"("runId", "rowId", "metric", "status", "rating", "score", "passed");

-- DropIndex
DROP INDEX "JudgmentItem_runId_metric_status_rating_score_passed_idx";

-- CreateIndex
CREATE INDEX "JudgmentItem_metric_summary_idx" ON "JudgmentItem"("runId", "metric", "status", "rating", "score", "passed", "cacheHit", "inputTokens", "outputTokens", "costUsd");

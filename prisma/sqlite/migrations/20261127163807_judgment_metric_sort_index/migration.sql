-- CreateIndex
CREATE INDEX "JudgmentItem_metric_sort_idx" ON "JudgmentItem"("runId", "metric", "status", "passed", "score", "rowNumber");

-- CreateIndex
CREATE INDEX "RunMetricTally_shard_idx" ON "RunMetricTally"("shard");

-- CreateIndex
CREATE INDEX "RunRowTally_shard_idx" ON "RunRowTally"("shard");

-- CreateTable
CREATE TABLE "RunMetricTally" (
    "runId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "shard" INTEGER NOT NULL DEFAULT 0,
    "items" INTEGER NOT NULL DEFAULT 0,
    "pending" INTEGER NOT NULL DEFAULT 0,
    "running" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "error" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "yes" INTEGER NOT NULL DEFAULT 0,
    "no" INTEGER NOT NULL DEFAULT 0,
    "scored" INTEGER NOT NULL DEFAULT 0,
    "scoreSum" REAL NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "metered" INTEGER NOT NULL DEFAULT 0,
    "cacheHits" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "priced" INTEGER NOT NULL DEFAULT 0,
    "bin0" INTEGER NOT NULL DEFAULT 0,
    "bin1" INTEGER NOT NULL DEFAULT 0,
    "bin2" INTEGER NOT NULL DEFAULT 0,
    "bin3" INTEGER NOT NULL DEFAULT 0,
    "bin4" INTEGER NOT NULL DEFAULT 0,
    "bin5" INTEGER NOT NULL DEFAULT 0,
    "bin6" INTEGER NOT NULL DEFAULT 0,
    "bin7" INTEGER NOT NULL DEFAULT 0,
    "bin8" INTEGER NOT NULL DEFAULT 0,
    "bin9" INTEGER NOT NULL DEFAULT 0,
    "overOne" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "metric", "shard"),
    CONSTRAINT "RunMetricTally_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunRowVerdict" (
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "shard" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "anyFailed" BOOLEAN NOT NULL DEFAULT false,
    "anyErrored" BOOLEAN NOT NULL DEFAULT false,
    "allPassed" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("runId", "rowId"),
    CONSTRAINT "RunRowVerdict_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunRowTally" (
    "runId" TEXT NOT NULL,
    "shard" INTEGER NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "failedRows" INTEGER NOT NULL DEFAULT 0,
    "erroredRows" INTEGER NOT NULL DEFAULT 0,
    "passedRows" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "shard"),
    CONSTRAINT "RunRowTally_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (a column added in place, not the whole table copied)
ALTER TABLE "JudgmentItem" ADD COLUMN "rowNumber" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_metric_status_passed_rowNumber_idx" ON "JudgmentItem"("runId", "metric", "status", "passed", "rowNumber");

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_anyFailed_rowNumber_idx" ON "RunRowVerdict"("runId", "anyFailed", "rowNumber");

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_anyErrored_rowNumber_idx" ON "RunRowVerdict"("runId", "anyErrored", "rowNumber");

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_allPassed_rowNumber_idx" ON "RunRowVerdict"("runId", "allPassed", "rowNumber");

-- Kept aggregates (see RunMetricTally, RunRowVerdict and RunRowTally in prisma/models.prisma).
-- The items' row numbers, then the tallies of the judgments already stored, then the triggers that keep
-- them from here on, in the transaction of every write to JudgmentItem.
UPDATE "JudgmentItem" SET "rowNumber" = (SELECT r."rowNumber" FROM "DatasetRow" r WHERE r."id" = "JudgmentItem"."rowId");

INSERT INTO "RunMetricTally" ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
SELECT j."runId", j."metric", 0, SUM(1), SUM(CASE WHEN j."status" = 'pending' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'running' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'skipped' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" = 'yes' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" = 'no' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" IS NULL AND j."score" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" IS NULL AND j."score" IS NOT NULL THEN j."score" ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."passed" = TRUE THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END), SUM(CASE WHEN j."inputTokens" IS NOT NULL OR j."outputTokens" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."cacheHit" = TRUE THEN 1 ELSE 0 END), SUM(COALESCE(j."inputTokens", 0)), SUM(COALESCE(j."outputTokens", 0)), SUM(COALESCE(j."costUsd", 0)), SUM(CASE WHEN j."costUsd" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 2 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 3 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 4 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 5 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 6 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 7 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 8 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND MIN(9, MAX(CAST(j."score" * 10 + 1e-9 AS INTEGER), 0)) = 9 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" > 1 THEN 1 ELSE 0 END)
FROM "JudgmentItem" j GROUP BY j."runId", j."metric";

INSERT INTO "RunRowVerdict" ("runId", "rowId", "rowNumber", "shard", "failed", "errored", "done", "anyFailed", "anyErrored", "allPassed")
SELECT j."runId", j."rowId", MAX(j."rowNumber"), 0, SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END), (SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END)) > 0 AND (SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END)) = 0 AND (SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END)) = 0
FROM "JudgmentItem" j GROUP BY j."runId", j."rowId";

INSERT INTO "RunRowTally" ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
SELECT v."runId", v."shard", COUNT(*), SUM(v."anyFailed"), SUM(v."anyErrored"), SUM(v."allPassed")
FROM "RunRowVerdict" v GROUP BY v."runId", v."shard";

-- Planning inserts pending and skipped items, which count for nothing in their row: the row's verdict is
-- created once (INSERT OR IGNORE) and updated only by an item that is done or errored.
CREATE TRIGGER "JudgmentItem_tally_insert" AFTER INSERT ON "JudgmentItem"
BEGIN
  INSERT INTO "RunMetricTally" ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  VALUES (NEW."runId", NEW."metric", 0, 1, CASE WHEN NEW."status" = 'pending' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'running' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'skipped' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'yes' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'no' THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN NEW."score" ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."passed" = TRUE THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END, CASE WHEN NEW."inputTokens" IS NOT NULL OR NEW."outputTokens" IS NOT NULL THEN 1 ELSE 0 END, CASE WHEN NEW."cacheHit" = TRUE THEN 1 ELSE 0 END, COALESCE(NEW."inputTokens", 0), COALESCE(NEW."outputTokens", 0), COALESCE(NEW."costUsd", 0), CASE WHEN NEW."costUsd" IS NOT NULL THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 0 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 1 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 2 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 3 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 4 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 5 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 6 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 7 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 8 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 9 THEN 1 ELSE 0 END, CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" > 1 THEN 1 ELSE 0 END)
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = "items" + excluded."items", "pending" = "pending" + excluded."pending", "running" = "running" + excluded."running", "done" = "done" + excluded."done", "error" = "error" + excluded."error", "skipped" = "skipped" + excluded."skipped", "yes" = "yes" + excluded."yes", "no" = "no" + excluded."no", "scored" = "scored" + excluded."scored", "scoreSum" = "scoreSum" + excluded."scoreSum", "passed" = "passed" + excluded."passed", "failed" = "failed" + excluded."failed", "metered" = "metered" + excluded."metered", "cacheHits" = "cacheHits" + excluded."cacheHits", "inputTokens" = "inputTokens" + excluded."inputTokens", "outputTokens" = "outputTokens" + excluded."outputTokens", "costUsd" = "costUsd" + excluded."costUsd", "priced" = "priced" + excluded."priced", "bin0" = "bin0" + excluded."bin0", "bin1" = "bin1" + excluded."bin1", "bin2" = "bin2" + excluded."bin2", "bin3" = "bin3" + excluded."bin3", "bin4" = "bin4" + excluded."bin4", "bin5" = "bin5" + excluded."bin5", "bin6" = "bin6" + excluded."bin6", "bin7" = "bin7" + excluded."bin7", "bin8" = "bin8" + excluded."bin8", "bin9" = "bin9" + excluded."bin9", "overOne" = "overOne" + excluded."overOne";
  INSERT OR IGNORE INTO "RunRowVerdict" ("runId", "rowId", "rowNumber", "shard") VALUES (NEW."runId", NEW."rowId", NEW."rowNumber", 0);
  UPDATE "RunRowVerdict" SET
    "failed" = "failed" + (CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END), "errored" = "errored" + (CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END), "done" = "done" + (CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END),
    "anyFailed" = ("failed" + (CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END)) > 0, "anyErrored" = ("errored" + (CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END)) > 0, "allPassed" = ("done" + (CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END)) > 0 AND ("failed" + (CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END)) = 0 AND ("errored" + (CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END)) = 0
  WHERE "runId" = NEW."runId" AND "rowId" = NEW."rowId" AND NEW."status" IN ('done', 'error');
END;

CREATE TRIGGER "JudgmentItem_tally_update" AFTER UPDATE OF "status", "rating", "score", "passed", "cacheHit", "inputTokens", "outputTokens", "costUsd" ON "JudgmentItem"
BEGIN
  INSERT INTO "RunMetricTally" ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  VALUES (NEW."runId", NEW."metric", 0, 1 - (1), CASE WHEN NEW."status" = 'pending' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'pending' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'running' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'running' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'skipped' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'skipped' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'yes' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'yes' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'no' THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'no' THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN NEW."score" ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN OLD."score" ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."passed" = TRUE THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = TRUE THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END), CASE WHEN NEW."inputTokens" IS NOT NULL OR NEW."outputTokens" IS NOT NULL THEN 1 ELSE 0 END - (CASE WHEN OLD."inputTokens" IS NOT NULL OR OLD."outputTokens" IS NOT NULL THEN 1 ELSE 0 END), CASE WHEN NEW."cacheHit" = TRUE THEN 1 ELSE 0 END - (CASE WHEN OLD."cacheHit" = TRUE THEN 1 ELSE 0 END), COALESCE(NEW."inputTokens", 0) - (COALESCE(OLD."inputTokens", 0)), COALESCE(NEW."outputTokens", 0) - (COALESCE(OLD."outputTokens", 0)), COALESCE(NEW."costUsd", 0) - (COALESCE(OLD."costUsd", 0)), CASE WHEN NEW."costUsd" IS NOT NULL THEN 1 ELSE 0 END - (CASE WHEN OLD."costUsd" IS NOT NULL THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 0 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 0 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 1 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 1 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 2 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 2 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 3 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 3 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 4 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 4 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 5 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 5 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 6 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 6 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 7 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 7 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 8 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 8 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND MIN(9, MAX(CAST(NEW."score" * 10 + 1e-9 AS INTEGER), 0)) = 9 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 9 THEN 1 ELSE 0 END), CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" > 1 THEN 1 ELSE 0 END - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" > 1 THEN 1 ELSE 0 END))
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = "items" + excluded."items", "pending" = "pending" + excluded."pending", "running" = "running" + excluded."running", "done" = "done" + excluded."done", "error" = "error" + excluded."error", "skipped" = "skipped" + excluded."skipped", "yes" = "yes" + excluded."yes", "no" = "no" + excluded."no", "scored" = "scored" + excluded."scored", "scoreSum" = "scoreSum" + excluded."scoreSum", "passed" = "passed" + excluded."passed", "failed" = "failed" + excluded."failed", "metered" = "metered" + excluded."metered", "cacheHits" = "cacheHits" + excluded."cacheHits", "inputTokens" = "inputTokens" + excluded."inputTokens", "outputTokens" = "outputTokens" + excluded."outputTokens", "costUsd" = "costUsd" + excluded."costUsd", "priced" = "priced" + excluded."priced", "bin0" = "bin0" + excluded."bin0", "bin1" = "bin1" + excluded."bin1", "bin2" = "bin2" + excluded."bin2", "bin3" = "bin3" + excluded."bin3", "bin4" = "bin4" + excluded."bin4", "bin5" = "bin5" + excluded."bin5", "bin6" = "bin6" + excluded."bin6", "bin7" = "bin7" + excluded."bin7", "bin8" = "bin8" + excluded."bin8", "bin9" = "bin9" + excluded."bin9", "overOne" = "overOne" + excluded."overOne";
END;

CREATE TRIGGER "JudgmentItem_row_verdict_update" AFTER UPDATE OF "status", "passed" ON "JudgmentItem"
WHEN ((CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END)) <> 0 OR ((CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END)) <> 0 OR ((CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END)) <> 0
BEGIN
  UPDATE "RunRowVerdict" SET
    "failed" = "failed" + ((CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END)), "errored" = "errored" + ((CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END)), "done" = "done" + ((CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END)),
    "anyFailed" = ("failed" + ((CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END))) > 0, "anyErrored" = ("errored" + ((CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END))) > 0, "allPassed" = ("done" + ((CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END))) > 0 AND ("failed" + ((CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END))) = 0 AND ("errored" + ((CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END))) = 0
  WHERE "runId" = NEW."runId" AND "rowId" = NEW."rowId";
END;

-- A judgment deleted with its run (the cascade of a deleted run or dataset) changes nothing that is kept.
CREATE TRIGGER "JudgmentItem_tally_delete" AFTER DELETE ON "JudgmentItem"
WHEN EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = OLD."runId")
BEGIN
  INSERT INTO "RunMetricTally" ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  VALUES (OLD."runId", OLD."metric", 0, -(1), -(CASE WHEN OLD."status" = 'pending' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'running' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'skipped' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'yes' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'no' THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN OLD."score" ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."passed" = TRUE THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END), -(CASE WHEN OLD."inputTokens" IS NOT NULL OR OLD."outputTokens" IS NOT NULL THEN 1 ELSE 0 END), -(CASE WHEN OLD."cacheHit" = TRUE THEN 1 ELSE 0 END), -(COALESCE(OLD."inputTokens", 0)), -(COALESCE(OLD."outputTokens", 0)), -(COALESCE(OLD."costUsd", 0)), -(CASE WHEN OLD."costUsd" IS NOT NULL THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 0 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 1 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 2 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 3 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 4 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 5 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 6 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 7 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 8 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND MIN(9, MAX(CAST(OLD."score" * 10 + 1e-9 AS INTEGER), 0)) = 9 THEN 1 ELSE 0 END), -(CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" > 1 THEN 1 ELSE 0 END))
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = "items" + excluded."items", "pending" = "pending" + excluded."pending", "running" = "running" + excluded."running", "done" = "done" + excluded."done", "error" = "error" + excluded."error", "skipped" = "skipped" + excluded."skipped", "yes" = "yes" + excluded."yes", "no" = "no" + excluded."no", "scored" = "scored" + excluded."scored", "scoreSum" = "scoreSum" + excluded."scoreSum", "passed" = "passed" + excluded."passed", "failed" = "failed" + excluded."failed", "metered" = "metered" + excluded."metered", "cacheHits" = "cacheHits" + excluded."cacheHits", "inputTokens" = "inputTokens" + excluded."inputTokens", "outputTokens" = "outputTokens" + excluded."outputTokens", "costUsd" = "costUsd" + excluded."costUsd", "priced" = "priced" + excluded."priced", "bin0" = "bin0" + excluded."bin0", "bin1" = "bin1" + excluded."bin1", "bin2" = "bin2" + excluded."bin2", "bin3" = "bin3" + excluded."bin3", "bin4" = "bin4" + excluded."bin4", "bin5" = "bin5" + excluded."bin5", "bin6" = "bin6" + excluded."bin6", "bin7" = "bin7" + excluded."bin7", "bin8" = "bin8" + excluded."bin8", "bin9" = "bin9" + excluded."bin9", "overOne" = "overOne" + excluded."overOne";
  UPDATE "RunRowVerdict" SET
    "failed" = "failed" - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END), "errored" = "errored" - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END), "done" = "done" - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END),
    "anyFailed" = ("failed" - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END)) > 0, "anyErrored" = ("errored" - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END)) > 0, "allPassed" = ("done" - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END)) > 0 AND ("failed" - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END)) = 0 AND ("errored" - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END)) = 0
  WHERE "runId" = OLD."runId" AND "rowId" = OLD."rowId";
END;

CREATE TRIGGER "RunRowVerdict_tally_insert" AFTER INSERT ON "RunRowVerdict"
BEGIN
  INSERT INTO "RunRowTally" ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  VALUES (NEW."runId", NEW."shard", 1, NEW."anyFailed", NEW."anyErrored", NEW."allPassed")
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = "rows" + 1, "failedRows" = "failedRows" + excluded."failedRows",
    "erroredRows" = "erroredRows" + excluded."erroredRows", "passedRows" = "passedRows" + excluded."passedRows";
END;

CREATE TRIGGER "RunRowVerdict_tally_update" AFTER UPDATE OF "anyFailed", "anyErrored", "allPassed" ON "RunRowVerdict"
WHEN OLD."anyFailed" <> NEW."anyFailed" OR OLD."anyErrored" <> NEW."anyErrored" OR OLD."allPassed" <> NEW."allPassed"
BEGIN
  UPDATE "RunRowTally" SET "failedRows" = "failedRows" + NEW."anyFailed" - OLD."anyFailed",
    "erroredRows" = "erroredRows" + NEW."anyErrored" - OLD."anyErrored", "passedRows" = "passedRows" + NEW."allPassed" - OLD."allPassed"
  WHERE "runId" = NEW."runId" AND "shard" = NEW."shard";
END;


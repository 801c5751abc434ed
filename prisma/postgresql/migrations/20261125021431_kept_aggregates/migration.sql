-- AlterTable
ALTER TABLE "JudgmentItem" ADD COLUMN     "rowNumber" INTEGER NOT NULL DEFAULT 0;

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
    "scoreSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "metered" INTEGER NOT NULL DEFAULT 0,
    "cacheHits" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
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

    CONSTRAINT "RunMetricTally_pkey" PRIMARY KEY ("runId","metric","shard")
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

    CONSTRAINT "RunRowVerdict_pkey" PRIMARY KEY ("runId","rowId")
);

-- CreateTable
CREATE TABLE "RunRowTally" (
    "runId" TEXT NOT NULL,
    "shard" INTEGER NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "failedRows" INTEGER NOT NULL DEFAULT 0,
    "erroredRows" INTEGER NOT NULL DEFAULT 0,
    "passedRows" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunRowTally_pkey" PRIMARY KEY ("runId","shard")
);

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_anyFailed_rowNumber_idx" ON "RunRowVerdict"("runId", "anyFailed", "rowNumber");

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_anyErrored_rowNumber_idx" ON "RunRowVerdict"("runId", "anyErrored", "rowNumber");

-- CreateIndex
CREATE INDEX "RunRowVerdict_runId_allPassed_rowNumber_idx" ON "RunRowVerdict"("runId", "allPassed", "rowNumber");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_metric_status_passed_rowNumber_idx" ON "JudgmentItem"("runId", "metric", "status", "passed", "rowNumber");

-- AddForeignKey
ALTER TABLE "RunMetricTally" ADD CONSTRAINT "RunMetricTally_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunRowVerdict" ADD CONSTRAINT "RunRowVerdict_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunRowTally" ADD CONSTRAINT "RunRowTally_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept aggregates (see RunMetricTally, RunRowVerdict and RunRowTally in prisma/models.prisma).
-- The items' row numbers, then the tallies of the judgments already stored, then the triggers that keep
-- them from here on, in the transaction of every write to JudgmentItem. The triggers are per statement,
-- over its transition tables: a page of planned items or a re-judge of thousands is one grouped write,
-- not one per item. Tallies go to one of eight shards (a hash of the judgment's or the row's id) so that
-- concurrent writers seldom wait on one row's lock; every write is an upsert, so a count is never lost
-- whichever shard it lands in. Upserts take their rows in key order, so two statements that touch the
-- same tallies (two workers' claims) queue instead of deadlocking.
UPDATE "JudgmentItem" j SET "rowNumber" = r."rowNumber" FROM "DatasetRow" r WHERE r."id" = j."rowId";

INSERT INTO "RunMetricTally" ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
SELECT j."runId", j."metric", hashtext(j."id") & 7, SUM(1), SUM(CASE WHEN j."status" = 'pending' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'running' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'skipped' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" = 'yes' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" = 'no' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" IS NULL AND j."score" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."rating" IS NULL AND j."score" IS NOT NULL THEN j."score" ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."passed" = TRUE THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END), SUM(CASE WHEN j."inputTokens" IS NOT NULL OR j."outputTokens" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."cacheHit" = TRUE THEN 1 ELSE 0 END), SUM(COALESCE(j."inputTokens", 0)), SUM(COALESCE(j."outputTokens", 0)), SUM(COALESCE(j."costUsd", 0)), SUM(CASE WHEN j."costUsd" IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" <= 1 AND LEAST(9, GREATEST(TRUNC(j."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' AND j."score" IS NOT NULL AND j."score" > 1 THEN 1 ELSE 0 END)
FROM "JudgmentItem" j GROUP BY 1, 2, 3;

INSERT INTO "RunRowVerdict" ("runId", "rowId", "rowNumber", "shard", "failed", "errored", "done", "anyFailed", "anyErrored", "allPassed")
SELECT j."runId", j."rowId", MAX(j."rowNumber"), hashtext(j."rowId") & 7, SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END), (SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END)) > 0 AND (SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END)) = 0 AND (SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END)) = 0
FROM "JudgmentItem" j GROUP BY j."runId", j."rowId";

INSERT INTO "RunRowTally" ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
SELECT v."runId", v."shard", COUNT(*), SUM(v."anyFailed"::int), SUM(v."anyErrored"::int), SUM(v."allPassed"::int)
FROM "RunRowVerdict" v GROUP BY v."runId", v."shard";

CREATE FUNCTION "JudgmentItem_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", c."shard", SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum"), SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT n."runId", n."metric", hashtext(n."id") & 7 AS "shard", (1) AS "items", (CASE WHEN n."status" = 'pending' THEN 1 ELSE 0 END) AS "pending", (CASE WHEN n."status" = 'running' THEN 1 ELSE 0 END) AS "running", (CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END) AS "done", (CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END) AS "error", (CASE WHEN n."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", (CASE WHEN n."status" = 'done' AND n."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", (CASE WHEN n."status" = 'done' AND n."rating" = 'no' THEN 1 ELSE 0 END) AS "no", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN n."score" ELSE 0 END) AS "scoreSum", (CASE WHEN n."status" = 'done' AND n."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", (CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", (CASE WHEN n."inputTokens" IS NOT NULL OR n."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", (CASE WHEN n."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", (COALESCE(n."inputTokens", 0)) AS "inputTokens", (COALESCE(n."outputTokens", 0)) AS "outputTokens", (COALESCE(n."costUsd", 0)) AS "costUsd", (CASE WHEN n."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM inserted n) c
  GROUP BY c."runId", c."metric", c."shard"
  ORDER BY c."runId", c."metric", c."shard"
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = t."items" + EXCLUDED."items", "pending" = t."pending" + EXCLUDED."pending", "running" = t."running" + EXCLUDED."running", "done" = t."done" + EXCLUDED."done", "error" = t."error" + EXCLUDED."error", "skipped" = t."skipped" + EXCLUDED."skipped", "yes" = t."yes" + EXCLUDED."yes", "no" = t."no" + EXCLUDED."no", "scored" = t."scored" + EXCLUDED."scored", "scoreSum" = t."scoreSum" + EXCLUDED."scoreSum", "passed" = t."passed" + EXCLUDED."passed", "failed" = t."failed" + EXCLUDED."failed", "metered" = t."metered" + EXCLUDED."metered", "cacheHits" = t."cacheHits" + EXCLUDED."cacheHits", "inputTokens" = t."inputTokens" + EXCLUDED."inputTokens", "outputTokens" = t."outputTokens" + EXCLUDED."outputTokens", "costUsd" = t."costUsd" + EXCLUDED."costUsd", "priced" = t."priced" + EXCLUDED."priced", "bin0" = t."bin0" + EXCLUDED."bin0", "bin1" = t."bin1" + EXCLUDED."bin1", "bin2" = t."bin2" + EXCLUDED."bin2", "bin3" = t."bin3" + EXCLUDED."bin3", "bin4" = t."bin4" + EXCLUDED."bin4", "bin5" = t."bin5" + EXCLUDED."bin5", "bin6" = t."bin6" + EXCLUDED."bin6", "bin7" = t."bin7" + EXCLUDED."bin7", "bin8" = t."bin8" + EXCLUDED."bin8", "bin9" = t."bin9" + EXCLUDED."bin9", "overOne" = t."overOne" + EXCLUDED."overOne";
  INSERT INTO "RunRowVerdict" AS v ("runId", "rowId", "rowNumber", "shard", "failed", "errored", "done", "anyFailed", "anyErrored", "allPassed")
  SELECT n."runId", n."rowId", MAX(n."rowNumber"), hashtext(n."rowId") & 7, SUM(CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END), SUM(CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END), (SUM(CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END)) > 0, (SUM(CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END)) > 0 AND (SUM(CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END)) = 0 AND (SUM(CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END)) = 0
  FROM inserted n GROUP BY n."runId", n."rowId"
  ON CONFLICT ("runId", "rowId") DO UPDATE SET
    "failed" = v."failed" + EXCLUDED."failed", "errored" = v."errored" + EXCLUDED."errored", "done" = v."done" + EXCLUDED."done",
    "anyFailed" = (v."failed" + EXCLUDED."failed") > 0, "anyErrored" = (v."errored" + EXCLUDED."errored") > 0, "allPassed" = (v."done" + EXCLUDED."done") > 0 AND (v."failed" + EXCLUDED."failed") = 0 AND (v."errored" + EXCLUDED."errored") = 0;
  RETURN NULL;
END;
$$;

CREATE FUNCTION "JudgmentItem_tally_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", c."shard", SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum"), SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT n."runId", n."metric", hashtext(n."id") & 7 AS "shard", (1) AS "items", (CASE WHEN n."status" = 'pending' THEN 1 ELSE 0 END) AS "pending", (CASE WHEN n."status" = 'running' THEN 1 ELSE 0 END) AS "running", (CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END) AS "done", (CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END) AS "error", (CASE WHEN n."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", (CASE WHEN n."status" = 'done' AND n."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", (CASE WHEN n."status" = 'done' AND n."rating" = 'no' THEN 1 ELSE 0 END) AS "no", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN n."score" ELSE 0 END) AS "scoreSum", (CASE WHEN n."status" = 'done' AND n."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", (CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", (CASE WHEN n."inputTokens" IS NOT NULL OR n."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", (CASE WHEN n."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", (COALESCE(n."inputTokens", 0)) AS "inputTokens", (COALESCE(n."outputTokens", 0)) AS "outputTokens", (COALESCE(n."costUsd", 0)) AS "costUsd", (CASE WHEN n."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM updated_new n UNION ALL SELECT o."runId", o."metric", hashtext(o."id") & 7 AS "shard", -(1) AS "items", -(CASE WHEN o."status" = 'pending' THEN 1 ELSE 0 END) AS "pending", -(CASE WHEN o."status" = 'running' THEN 1 ELSE 0 END) AS "running", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "done", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "error", -(CASE WHEN o."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", -(CASE WHEN o."status" = 'done' AND o."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", -(CASE WHEN o."status" = 'done' AND o."rating" = 'no' THEN 1 ELSE 0 END) AS "no", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN o."score" ELSE 0 END) AS "scoreSum", -(CASE WHEN o."status" = 'done' AND o."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", -(CASE WHEN o."inputTokens" IS NOT NULL OR o."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", -(CASE WHEN o."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", -(COALESCE(o."inputTokens", 0)) AS "inputTokens", -(COALESCE(o."outputTokens", 0)) AS "outputTokens", -(COALESCE(o."costUsd", 0)) AS "costUsd", -(CASE WHEN o."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM updated_old o) c
  GROUP BY c."runId", c."metric", c."shard"
  HAVING SUM(c."items") <> 0 OR SUM(c."pending") <> 0 OR SUM(c."running") <> 0 OR SUM(c."done") <> 0 OR SUM(c."error") <> 0 OR SUM(c."skipped") <> 0 OR SUM(c."yes") <> 0 OR SUM(c."no") <> 0 OR SUM(c."scored") <> 0 OR SUM(c."scoreSum") <> 0 OR SUM(c."passed") <> 0 OR SUM(c."failed") <> 0 OR SUM(c."metered") <> 0 OR SUM(c."cacheHits") <> 0 OR SUM(c."inputTokens") <> 0 OR SUM(c."outputTokens") <> 0 OR SUM(c."costUsd") <> 0 OR SUM(c."priced") <> 0 OR SUM(c."bin0") <> 0 OR SUM(c."bin1") <> 0 OR SUM(c."bin2") <> 0 OR SUM(c."bin3") <> 0 OR SUM(c."bin4") <> 0 OR SUM(c."bin5") <> 0 OR SUM(c."bin6") <> 0 OR SUM(c."bin7") <> 0 OR SUM(c."bin8") <> 0 OR SUM(c."bin9") <> 0 OR SUM(c."overOne") <> 0
  ORDER BY c."runId", c."metric", c."shard"
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = t."items" + EXCLUDED."items", "pending" = t."pending" + EXCLUDED."pending", "running" = t."running" + EXCLUDED."running", "done" = t."done" + EXCLUDED."done", "error" = t."error" + EXCLUDED."error", "skipped" = t."skipped" + EXCLUDED."skipped", "yes" = t."yes" + EXCLUDED."yes", "no" = t."no" + EXCLUDED."no", "scored" = t."scored" + EXCLUDED."scored", "scoreSum" = t."scoreSum" + EXCLUDED."scoreSum", "passed" = t."passed" + EXCLUDED."passed", "failed" = t."failed" + EXCLUDED."failed", "metered" = t."metered" + EXCLUDED."metered", "cacheHits" = t."cacheHits" + EXCLUDED."cacheHits", "inputTokens" = t."inputTokens" + EXCLUDED."inputTokens", "outputTokens" = t."outputTokens" + EXCLUDED."outputTokens", "costUsd" = t."costUsd" + EXCLUDED."costUsd", "priced" = t."priced" + EXCLUDED."priced", "bin0" = t."bin0" + EXCLUDED."bin0", "bin1" = t."bin1" + EXCLUDED."bin1", "bin2" = t."bin2" + EXCLUDED."bin2", "bin3" = t."bin3" + EXCLUDED."bin3", "bin4" = t."bin4" + EXCLUDED."bin4", "bin5" = t."bin5" + EXCLUDED."bin5", "bin6" = t."bin6" + EXCLUDED."bin6", "bin7" = t."bin7" + EXCLUDED."bin7", "bin8" = t."bin8" + EXCLUDED."bin8", "bin9" = t."bin9" + EXCLUDED."bin9", "overOne" = t."overOne" + EXCLUDED."overOne";
  UPDATE "RunRowVerdict" v SET
    "failed" = v."failed" + d."f", "errored" = v."errored" + d."e", "done" = v."done" + d."d",
    "anyFailed" = (v."failed" + d."f") > 0, "anyErrored" = (v."errored" + d."e") > 0, "allPassed" = (v."done" + d."d") > 0 AND (v."failed" + d."f") = 0 AND (v."errored" + d."e") = 0
  FROM (SELECT x."runId", x."rowId", SUM(x."f") AS "f", SUM(x."e") AS "e", SUM(x."d") AS "d"
    FROM (SELECT n."runId", n."rowId", (CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END) AS "f", (CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END) AS "e", (CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END) AS "d" FROM updated_new n UNION ALL SELECT o."runId", o."rowId", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "f", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "e", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "d" FROM updated_old o) x GROUP BY x."runId", x."rowId"
    HAVING SUM(x."f") <> 0 OR SUM(x."e") <> 0 OR SUM(x."d") <> 0) d
  WHERE v."runId" = d."runId" AND v."rowId" = d."rowId";
  RETURN NULL;
END;
$$;

-- A judgment deleted with its run (the cascade of a deleted run or dataset) changes nothing that is kept.
CREATE FUNCTION "JudgmentItem_tally_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", c."shard", SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum"), SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT o."runId", o."metric", hashtext(o."id") & 7 AS "shard", -(1) AS "items", -(CASE WHEN o."status" = 'pending' THEN 1 ELSE 0 END) AS "pending", -(CASE WHEN o."status" = 'running' THEN 1 ELSE 0 END) AS "running", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "done", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "error", -(CASE WHEN o."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", -(CASE WHEN o."status" = 'done' AND o."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", -(CASE WHEN o."status" = 'done' AND o."rating" = 'no' THEN 1 ELSE 0 END) AS "no", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN o."score" ELSE 0 END) AS "scoreSum", -(CASE WHEN o."status" = 'done' AND o."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", -(CASE WHEN o."inputTokens" IS NOT NULL OR o."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", -(CASE WHEN o."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", -(COALESCE(o."inputTokens", 0)) AS "inputTokens", -(COALESCE(o."outputTokens", 0)) AS "outputTokens", -(COALESCE(o."costUsd", 0)) AS "costUsd", -(CASE WHEN o."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM deleted o WHERE EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = o."runId")) c
  GROUP BY c."runId", c."metric", c."shard"
  ORDER BY c."runId", c."metric", c."shard"
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = t."items" + EXCLUDED."items", "pending" = t."pending" + EXCLUDED."pending", "running" = t."running" + EXCLUDED."running", "done" = t."done" + EXCLUDED."done", "error" = t."error" + EXCLUDED."error", "skipped" = t."skipped" + EXCLUDED."skipped", "yes" = t."yes" + EXCLUDED."yes", "no" = t."no" + EXCLUDED."no", "scored" = t."scored" + EXCLUDED."scored", "scoreSum" = t."scoreSum" + EXCLUDED."scoreSum", "passed" = t."passed" + EXCLUDED."passed", "failed" = t."failed" + EXCLUDED."failed", "metered" = t."metered" + EXCLUDED."metered", "cacheHits" = t."cacheHits" + EXCLUDED."cacheHits", "inputTokens" = t."inputTokens" + EXCLUDED."inputTokens", "outputTokens" = t."outputTokens" + EXCLUDED."outputTokens", "costUsd" = t."costUsd" + EXCLUDED."costUsd", "priced" = t."priced" + EXCLUDED."priced", "bin0" = t."bin0" + EXCLUDED."bin0", "bin1" = t."bin1" + EXCLUDED."bin1", "bin2" = t."bin2" + EXCLUDED."bin2", "bin3" = t."bin3" + EXCLUDED."bin3", "bin4" = t."bin4" + EXCLUDED."bin4", "bin5" = t."bin5" + EXCLUDED."bin5", "bin6" = t."bin6" + EXCLUDED."bin6", "bin7" = t."bin7" + EXCLUDED."bin7", "bin8" = t."bin8" + EXCLUDED."bin8", "bin9" = t."bin9" + EXCLUDED."bin9", "overOne" = t."overOne" + EXCLUDED."overOne";
  UPDATE "RunRowVerdict" v SET
    "failed" = v."failed" + d."f", "errored" = v."errored" + d."e", "done" = v."done" + d."d",
    "anyFailed" = (v."failed" + d."f") > 0, "anyErrored" = (v."errored" + d."e") > 0, "allPassed" = (v."done" + d."d") > 0 AND (v."failed" + d."f") = 0 AND (v."errored" + d."e") = 0
  FROM (SELECT x."runId", x."rowId", SUM(x."f") AS "f", SUM(x."e") AS "e", SUM(x."d") AS "d"
    FROM (SELECT o."runId", o."rowId", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "f", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "e", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "d" FROM deleted o) x GROUP BY x."runId", x."rowId"
    HAVING SUM(x."f") <> 0 OR SUM(x."e") <> 0 OR SUM(x."d") <> 0) d
  WHERE v."runId" = d."runId" AND v."rowId" = d."rowId";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "JudgmentItem_tally_insert" AFTER INSERT ON "JudgmentItem"
REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "JudgmentItem_tally_insert"();

CREATE TRIGGER "JudgmentItem_tally_update" AFTER UPDATE ON "JudgmentItem"
REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new FOR EACH STATEMENT EXECUTE FUNCTION "JudgmentItem_tally_update"();

CREATE TRIGGER "JudgmentItem_tally_delete" AFTER DELETE ON "JudgmentItem"
REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "JudgmentItem_tally_delete"();

CREATE FUNCTION "RunRowVerdict_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunRowTally" AS t ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  SELECT n."runId", n."shard", COUNT(*), SUM(n."anyFailed"::int), SUM(n."anyErrored"::int), SUM(n."allPassed"::int)
  FROM inserted n GROUP BY n."runId", n."shard" ORDER BY n."runId", n."shard"
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = t."rows" + EXCLUDED."rows", "failedRows" = t."failedRows" + EXCLUDED."failedRows", "erroredRows" = t."erroredRows" + EXCLUDED."erroredRows", "passedRows" = t."passedRows" + EXCLUDED."passedRows";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "RunRowVerdict_tally_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunRowTally" AS t ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  SELECT n."runId", n."shard", 0, SUM(n."anyFailed"::int - o."anyFailed"::int), SUM(n."anyErrored"::int - o."anyErrored"::int),
    SUM(n."allPassed"::int - o."allPassed"::int)
  FROM updated_new n JOIN updated_old o ON o."runId" = n."runId" AND o."rowId" = n."rowId"
  WHERE n."anyFailed" <> o."anyFailed" OR n."anyErrored" <> o."anyErrored" OR n."allPassed" <> o."allPassed"
  GROUP BY n."runId", n."shard" ORDER BY n."runId", n."shard"
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = t."rows" + EXCLUDED."rows", "failedRows" = t."failedRows" + EXCLUDED."failedRows", "erroredRows" = t."erroredRows" + EXCLUDED."erroredRows", "passedRows" = t."passedRows" + EXCLUDED."passedRows";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RunRowVerdict_tally_insert" AFTER INSERT ON "RunRowVerdict"
REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "RunRowVerdict_tally_insert"();

CREATE TRIGGER "RunRowVerdict_tally_update" AFTER UPDATE ON "RunRowVerdict"
REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new FOR EACH STATEMENT EXECUTE FUNCTION "RunRowVerdict_tally_update"();


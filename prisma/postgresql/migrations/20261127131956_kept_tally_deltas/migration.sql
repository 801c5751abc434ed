-- CreateIndex
CREATE INDEX "RunMetricTally_shard_idx" ON "RunMetricTally"("shard");

-- CreateIndex
CREATE INDEX "RunRowTally_shard_idx" ON "RunRowTally"("shard");

-- Kept tallies without waiting (see RunMetricTally in prisma/models.prisma). The first triggers upserted
-- every write into one of eight shards per run and metric; a shard's row lock is held until the writer's
-- transaction ends, so with many results in flight (several workers, 64 calls each) writers queued on
-- those locks: bench:scale measured 8.8 ms of database time per judgment with one worker and 23 ms with
-- two, against 0.45 ms without tallies. Now each change to RunMetricTally and RunRowTally (a statement's,
-- or a judgment's, below) is a row of its own (a delta, on a shard from this sequence, 8 and up), which
-- no other writer touches; readers already sum every shard, so they read the deltas with the rest.
-- fold_kept_tallies, called by the judging processes' heartbeat, moves the deltas into shard 0 in one
-- transaction, so the rows a reader sums stay few. The sequence cycles; a delta still unfolded when its
-- number comes round again (two billion writes later) is added to, not overwritten (ON CONFLICT).
CREATE SEQUENCE "KeptTallyDeltaShard" AS integer MINVALUE 8 MAXVALUE 2147483647 START 8 CACHE 64 CYCLE;

CREATE OR REPLACE FUNCTION "JudgmentItem_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", nextval('"KeptTallyDeltaShard"')::int, SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum"), SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT n."runId", n."metric", (1) AS "items", (CASE WHEN n."status" IN ('pending', 'running') THEN 1 ELSE 0 END) AS "pending", (0) AS "running", (CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END) AS "done", (CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END) AS "error", (CASE WHEN n."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", (CASE WHEN n."status" = 'done' AND n."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", (CASE WHEN n."status" = 'done' AND n."rating" = 'no' THEN 1 ELSE 0 END) AS "no", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN n."score" ELSE 0 END) AS "scoreSum", (CASE WHEN n."status" = 'done' AND n."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", (CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", (CASE WHEN n."inputTokens" IS NOT NULL OR n."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", (CASE WHEN n."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", (COALESCE(n."inputTokens", 0)) AS "inputTokens", (COALESCE(n."outputTokens", 0)) AS "outputTokens", (COALESCE(n."costUsd", 0)) AS "costUsd", (CASE WHEN n."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM inserted n) c
  GROUP BY c."runId", c."metric"
  ORDER BY c."runId", c."metric"
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

CREATE OR REPLACE FUNCTION "JudgmentItem_tally_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", nextval('"KeptTallyDeltaShard"')::int, SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum"), SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT o."runId", o."metric", -(1) AS "items", -(CASE WHEN o."status" IN ('pending', 'running') THEN 1 ELSE 0 END) AS "pending", (0) AS "running", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "done", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "error", -(CASE WHEN o."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", -(CASE WHEN o."status" = 'done' AND o."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", -(CASE WHEN o."status" = 'done' AND o."rating" = 'no' THEN 1 ELSE 0 END) AS "no", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN o."score" ELSE 0 END) AS "scoreSum", -(CASE WHEN o."status" = 'done' AND o."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", -(CASE WHEN o."inputTokens" IS NOT NULL OR o."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", -(CASE WHEN o."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", -(COALESCE(o."inputTokens", 0)) AS "inputTokens", -(COALESCE(o."outputTokens", 0)) AS "outputTokens", -(COALESCE(o."costUsd", 0)) AS "costUsd", -(CASE WHEN o."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM deleted o WHERE EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = o."runId")) c
  GROUP BY c."runId", c."metric"
  ORDER BY c."runId", c."metric"
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

CREATE OR REPLACE FUNCTION "RunRowVerdict_tally_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunRowTally" AS t ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  SELECT n."runId", nextval('"KeptTallyDeltaShard"')::int, COUNT(*), SUM(n."anyFailed"::int), SUM(n."anyErrored"::int), SUM(n."allPassed"::int)
  FROM inserted n GROUP BY n."runId" ORDER BY n."runId"
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = t."rows" + EXCLUDED."rows", "failedRows" = t."failedRows" + EXCLUDED."failedRows", "erroredRows" = t."erroredRows" + EXCLUDED."erroredRows", "passedRows" = t."passedRows" + EXCLUDED."passedRows";
  RETURN NULL;
END;
$$;

-- Folds the deltas of every run into shard 0 and returns how many tallies it changed. One process folds at
-- a time (the others return at once). A run being deleted, or otherwise locked against key changes, is
-- left for the next fold: its key is locked first (FOR KEY SHARE, what the foreign key check takes anyway)
-- and a run that cannot be locked at once is skipped, so a fold never waits on a delete nor deadlocks it.
CREATE FUNCTION "fold_kept_tallies"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  runs text[];
  metric_tallies integer;
  row_tallies integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('assay.fold_kept_tallies')) THEN
    RETURN 0;
  END IF;
  SELECT array_agg(l."id") INTO runs FROM (
    SELECT r."id" FROM "Run" r
    WHERE r."id" IN (SELECT "runId" FROM "RunMetricTally" WHERE "shard" >= 8 UNION SELECT "runId" FROM "RunRowTally" WHERE "shard" >= 8)
    ORDER BY r."id" FOR KEY SHARE SKIP LOCKED
  ) l;
  IF runs IS NULL THEN
    RETURN 0;
  END IF;
  WITH moved AS (
    DELETE FROM "RunMetricTally" d WHERE d."shard" >= 8 AND d."runId" = ANY(runs) RETURNING d.*
  )
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT m."runId", m."metric", 0, SUM(m."items"), SUM(m."pending"), SUM(m."running"), SUM(m."done"), SUM(m."error"), SUM(m."skipped"), SUM(m."yes"), SUM(m."no"), SUM(m."scored"), SUM(m."scoreSum"), SUM(m."passed"), SUM(m."failed"), SUM(m."metered"), SUM(m."cacheHits"), SUM(m."inputTokens"), SUM(m."outputTokens"), SUM(m."costUsd"), SUM(m."priced"), SUM(m."bin0"), SUM(m."bin1"), SUM(m."bin2"), SUM(m."bin3"), SUM(m."bin4"), SUM(m."bin5"), SUM(m."bin6"), SUM(m."bin7"), SUM(m."bin8"), SUM(m."bin9"), SUM(m."overOne")
  FROM moved m GROUP BY m."runId", m."metric" ORDER BY m."runId", m."metric"
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "items" = t."items" + EXCLUDED."items", "pending" = t."pending" + EXCLUDED."pending", "running" = t."running" + EXCLUDED."running", "done" = t."done" + EXCLUDED."done", "error" = t."error" + EXCLUDED."error", "skipped" = t."skipped" + EXCLUDED."skipped", "yes" = t."yes" + EXCLUDED."yes", "no" = t."no" + EXCLUDED."no", "scored" = t."scored" + EXCLUDED."scored", "scoreSum" = t."scoreSum" + EXCLUDED."scoreSum", "passed" = t."passed" + EXCLUDED."passed", "failed" = t."failed" + EXCLUDED."failed", "metered" = t."metered" + EXCLUDED."metered", "cacheHits" = t."cacheHits" + EXCLUDED."cacheHits", "inputTokens" = t."inputTokens" + EXCLUDED."inputTokens", "outputTokens" = t."outputTokens" + EXCLUDED."outputTokens", "costUsd" = t."costUsd" + EXCLUDED."costUsd", "priced" = t."priced" + EXCLUDED."priced", "bin0" = t."bin0" + EXCLUDED."bin0", "bin1" = t."bin1" + EXCLUDED."bin1", "bin2" = t."bin2" + EXCLUDED."bin2", "bin3" = t."bin3" + EXCLUDED."bin3", "bin4" = t."bin4" + EXCLUDED."bin4", "bin5" = t."bin5" + EXCLUDED."bin5", "bin6" = t."bin6" + EXCLUDED."bin6", "bin7" = t."bin7" + EXCLUDED."bin7", "bin8" = t."bin8" + EXCLUDED."bin8", "bin9" = t."bin9" + EXCLUDED."bin9", "overOne" = t."overOne" + EXCLUDED."overOne";
  GET DIAGNOSTICS metric_tallies = ROW_COUNT;
  WITH moved AS (
    DELETE FROM "RunRowTally" d WHERE d."shard" >= 8 AND d."runId" = ANY(runs) RETURNING d.*
  )
  INSERT INTO "RunRowTally" AS t ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  SELECT m."runId", 0, SUM(m."rows"), SUM(m."failedRows"), SUM(m."erroredRows"), SUM(m."passedRows")
  FROM moved m GROUP BY m."runId" ORDER BY m."runId"
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = t."rows" + EXCLUDED."rows", "failedRows" = t."failedRows" + EXCLUDED."failedRows", "erroredRows" = t."erroredRows" + EXCLUDED."erroredRows", "passedRows" = t."passedRows" + EXCLUDED."passedRows";
  GET DIAGNOSTICS row_tallies = ROW_COUNT;
  RETURN metric_tallies + row_tallies;
END;
$$;

-- A judgment's update (a claim, its release, a result, a re-judge) is kept by a row trigger deferred to COMMIT,
-- not by the statement trigger: bench:scale measured the statement trigger's transition tables at 0.4 ms of
-- database time on every single-row result, and its lock on the row's verdict (RunRowVerdict), which a row's
-- metrics all write and whose results arrive together, was held from the result's UPDATE to its COMMIT,
-- across the round trips between them, so the row's other results queued behind it (1–4 ms a result, growing
-- with the workers). Deferred, the verdict's lock is taken and released within COMMIT; the tally is a delta
-- row, which nobody waits on. Only a change of a column the tallies read fires it. Inserts (planning) and
-- deletes stay per statement: they come in thousands. (A score sum's delta adds 0.0, so that a score of -0
-- taken back leaves 0 in the tally, not -0.)
-- A claim (pending to running) and its release change no tally here: a claimed judgment counts as pending,
-- as it did before it was claimed, and "running" stays 0 in the tallies; readers count the running ones
-- live (the run's claimed judgments, a few dozen per worker, through the (runId, status) index). Each
-- claim of a worker's lanes would otherwise queue a delta per judgment (0.3 ms of database time per
-- judgment in bench:scale). Judgments running now are counted as pending from here on.
UPDATE "RunMetricTally" SET "pending" = "pending" + "running", "running" = 0 WHERE "running" <> 0;
DROP TRIGGER "JudgmentItem_tally_update" ON "JudgmentItem";
DROP FUNCTION "JudgmentItem_tally_update"();

CREATE FUNCTION "JudgmentItem_tally_row_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f integer := (CASE WHEN (NEW."status" = 'done' AND NEW."passed" = FALSE) THEN 1 ELSE 0 END) - (CASE WHEN (OLD."status" = 'done' AND OLD."passed" = FALSE) THEN 1 ELSE 0 END);
  e integer := (CASE WHEN (NEW."status" = 'error') THEN 1 ELSE 0 END) - (CASE WHEN (OLD."status" = 'error') THEN 1 ELSE 0 END);
  d integer := (CASE WHEN (NEW."status" = 'done') THEN 1 ELSE 0 END) - (CASE WHEN (OLD."status" = 'done') THEN 1 ELSE 0 END);
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  VALUES (NEW."runId", NEW."metric", nextval('"KeptTallyDeltaShard"')::int,
    (CASE WHEN NEW."status" IN ('pending', 'running') THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" IN ('pending', 'running') THEN 1 ELSE 0 END),
    0,
    (CASE WHEN NEW."status" = 'done' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'error' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'error' THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'skipped' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'skipped' THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'yes' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'yes' THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."rating" = 'no' THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."rating" = 'no' THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN 1 ELSE 0 END),
    ((CASE WHEN NEW."status" = 'done' AND NEW."rating" IS NULL AND NEW."score" IS NOT NULL THEN NEW."score" ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."rating" IS NULL AND OLD."score" IS NOT NULL THEN OLD."score" ELSE 0 END)) + 0.0,
    (CASE WHEN NEW."status" = 'done' AND NEW."passed" = TRUE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = TRUE THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."passed" = FALSE THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."passed" = FALSE THEN 1 ELSE 0 END),
    (CASE WHEN NEW."inputTokens" IS NOT NULL OR NEW."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) - (CASE WHEN OLD."inputTokens" IS NOT NULL OR OLD."outputTokens" IS NOT NULL THEN 1 ELSE 0 END),
    (CASE WHEN NEW."cacheHit" = TRUE THEN 1 ELSE 0 END) - (CASE WHEN OLD."cacheHit" = TRUE THEN 1 ELSE 0 END),
    (COALESCE(NEW."inputTokens", 0)) - (COALESCE(OLD."inputTokens", 0)),
    (COALESCE(NEW."outputTokens", 0)) - (COALESCE(OLD."outputTokens", 0)),
    (COALESCE(NEW."costUsd", 0)) - (COALESCE(OLD."costUsd", 0)),
    (CASE WHEN NEW."costUsd" IS NOT NULL THEN 1 ELSE 0 END) - (CASE WHEN OLD."costUsd" IS NOT NULL THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" <= 1 AND LEAST(9, GREATEST(TRUNC(NEW."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" <= 1 AND LEAST(9, GREATEST(TRUNC(OLD."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END),
    (CASE WHEN NEW."status" = 'done' AND NEW."score" IS NOT NULL AND NEW."score" > 1 THEN 1 ELSE 0 END) - (CASE WHEN OLD."status" = 'done' AND OLD."score" IS NOT NULL AND OLD."score" > 1 THEN 1 ELSE 0 END))
  ON CONFLICT ("runId", "metric", "shard") DO UPDATE SET "pending" = t."pending" + EXCLUDED."pending", "running" = t."running" + EXCLUDED."running", "done" = t."done" + EXCLUDED."done", "error" = t."error" + EXCLUDED."error", "skipped" = t."skipped" + EXCLUDED."skipped", "yes" = t."yes" + EXCLUDED."yes", "no" = t."no" + EXCLUDED."no", "scored" = t."scored" + EXCLUDED."scored", "scoreSum" = t."scoreSum" + EXCLUDED."scoreSum", "passed" = t."passed" + EXCLUDED."passed", "failed" = t."failed" + EXCLUDED."failed", "metered" = t."metered" + EXCLUDED."metered", "cacheHits" = t."cacheHits" + EXCLUDED."cacheHits", "inputTokens" = t."inputTokens" + EXCLUDED."inputTokens", "outputTokens" = t."outputTokens" + EXCLUDED."outputTokens", "costUsd" = t."costUsd" + EXCLUDED."costUsd", "priced" = t."priced" + EXCLUDED."priced", "bin0" = t."bin0" + EXCLUDED."bin0", "bin1" = t."bin1" + EXCLUDED."bin1", "bin2" = t."bin2" + EXCLUDED."bin2", "bin3" = t."bin3" + EXCLUDED."bin3", "bin4" = t."bin4" + EXCLUDED."bin4", "bin5" = t."bin5" + EXCLUDED."bin5", "bin6" = t."bin6" + EXCLUDED."bin6", "bin7" = t."bin7" + EXCLUDED."bin7", "bin8" = t."bin8" + EXCLUDED."bin8", "bin9" = t."bin9" + EXCLUDED."bin9", "overOne" = t."overOne" + EXCLUDED."overOne";
  IF f <> 0 OR e <> 0 OR d <> 0 THEN
    UPDATE "RunRowVerdict" v SET
      "failed" = v."failed" + f, "errored" = v."errored" + e, "done" = v."done" + d,
      "anyFailed" = (v."failed" + f) > 0, "anyErrored" = (v."errored" + e) > 0,
      "allPassed" = (v."done" + d) > 0 AND (v."failed" + f) = 0 AND (v."errored" + e) = 0
    WHERE v."runId" = NEW."runId" AND v."rowId" = NEW."rowId";
  END IF;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "JudgmentItem_tally_row_update" AFTER UPDATE ON "JudgmentItem"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (current_setting('assay.bulk_tallies', true) IS DISTINCT FROM 'on' AND (
  ((OLD."status" IS DISTINCT FROM NEW."status") AND NOT (OLD."status" IN ('pending', 'running') AND NEW."status" IN ('pending', 'running'))) OR OLD."rating" IS DISTINCT FROM NEW."rating" OR OLD."score" IS DISTINCT FROM NEW."score" OR OLD."passed" IS DISTINCT FROM NEW."passed" OR OLD."inputTokens" IS DISTINCT FROM NEW."inputTokens" OR OLD."outputTokens" IS DISTINCT FROM NEW."outputTokens" OR OLD."cacheHit" IS DISTINCT FROM NEW."cacheHit" OR OLD."costUsd" IS DISTINCT FROM NEW."costUsd"))
EXECUTE FUNCTION "JudgmentItem_tally_row_update"();

-- A statement that updates thousands of judgments at once (a re-judge's reset) would queue thousands of row
-- events for COMMIT. It says so first (SET LOCAL assay.bulk_tallies = 'on', through lib/db's
-- bulkTallies), and the row trigger stands aside while this statement trigger keeps the tallies of the whole
-- statement in a few grouped writes, as the first version did.
CREATE FUNCTION "JudgmentItem_tally_bulk_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunMetricTally" AS t ("runId", "metric", "shard", "items", "pending", "running", "done", "error", "skipped", "yes", "no", "scored", "scoreSum", "passed", "failed", "metered", "cacheHits", "inputTokens", "outputTokens", "costUsd", "priced", "bin0", "bin1", "bin2", "bin3", "bin4", "bin5", "bin6", "bin7", "bin8", "bin9", "overOne")
  SELECT c."runId", c."metric", nextval('"KeptTallyDeltaShard"')::int, SUM(c."items"), SUM(c."pending"), SUM(c."running"), SUM(c."done"), SUM(c."error"), SUM(c."skipped"), SUM(c."yes"), SUM(c."no"), SUM(c."scored"), SUM(c."scoreSum") + 0.0, SUM(c."passed"), SUM(c."failed"), SUM(c."metered"), SUM(c."cacheHits"), SUM(c."inputTokens"), SUM(c."outputTokens"), SUM(c."costUsd"), SUM(c."priced"), SUM(c."bin0"), SUM(c."bin1"), SUM(c."bin2"), SUM(c."bin3"), SUM(c."bin4"), SUM(c."bin5"), SUM(c."bin6"), SUM(c."bin7"), SUM(c."bin8"), SUM(c."bin9"), SUM(c."overOne")
  FROM (SELECT n."runId", n."metric", (1) AS "items", (CASE WHEN n."status" IN ('pending', 'running') THEN 1 ELSE 0 END) AS "pending", (0) AS "running", (CASE WHEN n."status" = 'done' THEN 1 ELSE 0 END) AS "done", (CASE WHEN n."status" = 'error' THEN 1 ELSE 0 END) AS "error", (CASE WHEN n."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", (CASE WHEN n."status" = 'done' AND n."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", (CASE WHEN n."status" = 'done' AND n."rating" = 'no' THEN 1 ELSE 0 END) AS "no", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", (CASE WHEN n."status" = 'done' AND n."rating" IS NULL AND n."score" IS NOT NULL THEN n."score" ELSE 0 END) AS "scoreSum", (CASE WHEN n."status" = 'done' AND n."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", (CASE WHEN n."status" = 'done' AND n."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", (CASE WHEN n."inputTokens" IS NOT NULL OR n."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", (CASE WHEN n."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", (COALESCE(n."inputTokens", 0)) AS "inputTokens", (COALESCE(n."outputTokens", 0)) AS "outputTokens", (COALESCE(n."costUsd", 0)) AS "costUsd", (CASE WHEN n."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" <= 1 AND LEAST(9, GREATEST(TRUNC(n."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", (CASE WHEN n."status" = 'done' AND n."score" IS NOT NULL AND n."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM updated_new n UNION ALL SELECT o."runId", o."metric", -(1) AS "items", -(CASE WHEN o."status" IN ('pending', 'running') THEN 1 ELSE 0 END) AS "pending", (0) AS "running", -(CASE WHEN o."status" = 'done' THEN 1 ELSE 0 END) AS "done", -(CASE WHEN o."status" = 'error' THEN 1 ELSE 0 END) AS "error", -(CASE WHEN o."status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped", -(CASE WHEN o."status" = 'done' AND o."rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", -(CASE WHEN o."status" = 'done' AND o."rating" = 'no' THEN 1 ELSE 0 END) AS "no", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored", -(CASE WHEN o."status" = 'done' AND o."rating" IS NULL AND o."score" IS NOT NULL THEN o."score" ELSE 0 END) AS "scoreSum", -(CASE WHEN o."status" = 'done' AND o."passed" = TRUE THEN 1 ELSE 0 END) AS "passed", -(CASE WHEN o."status" = 'done' AND o."passed" = FALSE THEN 1 ELSE 0 END) AS "failed", -(CASE WHEN o."inputTokens" IS NOT NULL OR o."outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered", -(CASE WHEN o."cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits", -(COALESCE(o."inputTokens", 0)) AS "inputTokens", -(COALESCE(o."outputTokens", 0)) AS "outputTokens", -(COALESCE(o."costUsd", 0)) AS "costUsd", -(CASE WHEN o."costUsd" IS NOT NULL THEN 1 ELSE 0 END) AS "priced", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 0 THEN 1 ELSE 0 END) AS "bin0", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 1 THEN 1 ELSE 0 END) AS "bin1", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 2 THEN 1 ELSE 0 END) AS "bin2", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 3 THEN 1 ELSE 0 END) AS "bin3", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 4 THEN 1 ELSE 0 END) AS "bin4", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 5 THEN 1 ELSE 0 END) AS "bin5", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 6 THEN 1 ELSE 0 END) AS "bin6", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 7 THEN 1 ELSE 0 END) AS "bin7", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 8 THEN 1 ELSE 0 END) AS "bin8", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" <= 1 AND LEAST(9, GREATEST(TRUNC(o."score" * 10 + 1e-9)::int, 0)) = 9 THEN 1 ELSE 0 END) AS "bin9", -(CASE WHEN o."status" = 'done' AND o."score" IS NOT NULL AND o."score" > 1 THEN 1 ELSE 0 END) AS "overOne" FROM updated_old o) c
  GROUP BY c."runId", c."metric"
  HAVING SUM(c."items") <> 0 OR SUM(c."pending") <> 0 OR SUM(c."running") <> 0 OR SUM(c."done") <> 0 OR SUM(c."error") <> 0 OR SUM(c."skipped") <> 0 OR SUM(c."yes") <> 0 OR SUM(c."no") <> 0 OR SUM(c."scored") <> 0 OR SUM(c."scoreSum") <> 0 OR SUM(c."passed") <> 0 OR SUM(c."failed") <> 0 OR SUM(c."metered") <> 0 OR SUM(c."cacheHits") <> 0 OR SUM(c."inputTokens") <> 0 OR SUM(c."outputTokens") <> 0 OR SUM(c."costUsd") <> 0 OR SUM(c."priced") <> 0 OR SUM(c."bin0") <> 0 OR SUM(c."bin1") <> 0 OR SUM(c."bin2") <> 0 OR SUM(c."bin3") <> 0 OR SUM(c."bin4") <> 0 OR SUM(c."bin5") <> 0 OR SUM(c."bin6") <> 0 OR SUM(c."bin7") <> 0 OR SUM(c."bin8") <> 0 OR SUM(c."bin9") <> 0 OR SUM(c."overOne") <> 0
  ORDER BY c."runId", c."metric"
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

CREATE TRIGGER "JudgmentItem_tally_bulk_update" AFTER UPDATE ON "JudgmentItem"
REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new FOR EACH STATEMENT
WHEN (current_setting('assay.bulk_tallies', true) = 'on')
EXECUTE FUNCTION "JudgmentItem_tally_bulk_update"();

-- A verdict's flags flip rarely (a row's first result, its first failure), and a result updates one verdict:
-- the run's row tally is kept by a row trigger that fires only on a flip, instead of a statement trigger
-- (and its transition tables) on every update.
DROP TRIGGER "RunRowVerdict_tally_update" ON "RunRowVerdict";
DROP FUNCTION "RunRowVerdict_tally_update"();

CREATE FUNCTION "RunRowVerdict_tally_row_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "RunRowTally" AS t ("runId", "shard", "rows", "failedRows", "erroredRows", "passedRows")
  VALUES (NEW."runId", nextval('"KeptTallyDeltaShard"')::int, 0, NEW."anyFailed"::int - OLD."anyFailed"::int,
    NEW."anyErrored"::int - OLD."anyErrored"::int, NEW."allPassed"::int - OLD."allPassed"::int)
  ON CONFLICT ("runId", "shard") DO UPDATE SET "rows" = t."rows" + EXCLUDED."rows", "failedRows" = t."failedRows" + EXCLUDED."failedRows", "erroredRows" = t."erroredRows" + EXCLUDED."erroredRows", "passedRows" = t."passedRows" + EXCLUDED."passedRows";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RunRowVerdict_tally_row_update" AFTER UPDATE ON "RunRowVerdict"
FOR EACH ROW WHEN (OLD."anyFailed" IS DISTINCT FROM NEW."anyFailed" OR OLD."anyErrored" IS DISTINCT FROM NEW."anyErrored" OR OLD."allPassed" IS DISTINCT FROM NEW."allPassed")
EXECUTE FUNCTION "RunRowVerdict_tally_row_update"();

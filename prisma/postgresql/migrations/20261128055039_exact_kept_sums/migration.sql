-- A kept score sum and cost (RunMetricTally) are exact decimals. A tally is the sum of its shards and of
-- the deltas not yet folded into them, and a floating-point sum depends on the order of its terms: the
-- same judgments, read before and after a fold, could give averages differing in the 15th digit, so a
-- page read twice could change. Each delta is still computed from the judgment's float score, once, as it
-- is written (a float8 becomes a decimal of 15 significant digits); adding and folding decimals is exact,
-- so the sum no longer depends on when the deltas were folded.

-- AlterTable
ALTER TABLE "RunMetricTally" ALTER COLUMN "scoreSum" SET DATA TYPE DECIMAL(65,30),
ALTER COLUMN "costUsd" SET DATA TYPE DECIMAL(65,30);

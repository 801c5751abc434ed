// A run's kept score sums and costs read the same, to the last digit, whenever PostgreSQL's deltas are folded
// into their totals. A floating-point sum depends on the order of its terms, and a fold regroups them: the
// total plus each delta in turn, read before the fold, against the total plus the deltas' sum, kept by it. A
// compare page cached before a fold then disagreed with one read after it (in the 15th digit), and a page
// read twice could change. The kept sums are decimals, whose sums do not depend on the order. (SQLite keeps
// one row per tally, written in place, and has nothing to fold; the file runs there too.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { getJudgeUsage } from "@/lib/db/judgments/chartQueries";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { foldKeptTallies } from "@/lib/db/judgments/keptTallyFold";
import { createTempDb, type TempDb } from "../support/tempDb";
import { insertDatasetRows, insertJudgedRun, SCORED } from "../compare/support/pairedRuns";

const ROWS = 40;

describe("kept score sums and costs across folds", () => {
  let store: TempDb;
  let runId: string;

  beforeAll(async () => {
    store = await createTempDb();
    const datasetId = await insertDatasetRows(store.db, ROWS);
    ({ runId } = await insertJudgedRun(store.db, datasetId, {
      seed: 7,
      yesRate: 0.7,
      finishedAt: new Date("2026-11-28T06:00:00Z"),
    }));
    await foldKeptTallies(store.db);
  }, 60_000);
  afterAll(async () => store.cleanup());

  /** Each of a metric's judgments re-scored by a statement of its own: a delta each, waiting to be folded. */
  async function rescoreOneByOne(db: Db, metric: string, score: (i: number) => number) {
    const items = await sqlOf(db).all<{ id: string }>(
      `SELECT "id" FROM "JudgmentItem" WHERE "runId" = ? AND "metric" = ? AND "status" = 'done' ORDER BY "rowNumber"`,
      [runId, metric],
    );
    for (const [i, item] of items.entries())
      await sqlOf(db).run(`UPDATE "JudgmentItem" SET "score" = ?, "costUsd" = ? WHERE "id" = ?`, [
        score(i),
        // Costs of a few millionths of a dollar, as a cheap judge's calls cost.
        (3 + (i % 7)) * 1.1e-6,
        item.id,
      ]);
    return items.length;
  }

  const read = async (db: Db) => ({
    aggregates: await getRunAggregates(db, runId),
    usage: await getJudgeUsage(db, runId),
  });

  it("reads the same sums before and after every fold, and an average as the scores' own", async () => {
    const db = store.db;
    // Tenths, whose float sums round differently when grouped differently (0.1 + 0.2 + 0.3 ≠ 0.1 + (0.2 + 0.3)).
    const rescored = await rescoreOneByOne(db, SCORED[0], (i) => ((i * 3) % 10) / 10 + 0.1);
    expect(rescored).toBeGreaterThan(ROWS / 2);
    const beforeFold = await read(db);
    await foldKeptTallies(db);
    expect(await read(db)).toEqual(beforeFold);

    // Half folded, half not: the fold's total plus new deltas, read before and after the next fold.
    await rescoreOneByOne(db, SCORED[0], (i) => ((i * 7) % 10) / 10 + 0.1);
    await rescoreOneByOne(db, SCORED[1], (i) => ((i * 3) % 10) / 10);
    const halfFolded = await read(db);
    await foldKeptTallies(db);
    expect(await read(db)).toEqual(halfFolded);

    // The average is the scores' own, as a recount of the judgments gives it to the digit a page shows.
    const recount = await sqlOf(db).get<{ n: number; total: number }>(
      `SELECT COUNT(*) AS "n", SUM("score") AS "total" FROM "JudgmentItem"
       WHERE "runId" = ? AND "metric" = ? AND "status" = 'done' AND "rating" IS NULL AND "score" IS NOT NULL`,
      [runId, SCORED[0]],
    );
    const kept = halfFolded.aggregates.find((aggregate) => aggregate.metric === SCORED[0]);
    expect(kept?.denominator).toBe(Number(recount?.n));
    expect(kept?.value).toBeCloseTo(Number(recount?.total) / Number(recount?.n), 12);
  });
});

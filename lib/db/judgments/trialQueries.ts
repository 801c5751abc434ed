import { completedStamp } from "../cache/completedRunReads";
import { createPromiseCache } from "../cache/promiseCache";
import { databaseUrlOf, sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/** `rows` rows of one metric each passed `passes` of their `trials` judged trials. */
export type TrialCountGroup = { passes: number; trials: number; rows: number };

/**
 * What a run with trials says about each metric's rows, as counts only: per metric, how many rows passed
 * k of their n judged trials (done with a pass or fail; errors and skips left out). Two GROUP BYs in SQL over
 * the pairing index, so the page receives at most (trials + 1) × trials groups a metric, never a row each;
 * lib/stats/trialAgreement.ts turns them into pass@k, pass^k, unanimous rows and Fleiss' κ.
 */
export async function readTrialCounts(db: Db, runId: string): Promise<Map<string, TrialCountGroup[]>> {
  // A completed run's counts, read once: the run page asks for them twice (its cards' intervals, the trials
  // panel) and again on every visit, and at 30,000 rows × 3 trials × 7 metrics they are 630,000 index entries.
  const state = await sqlOf(db).get<{ id: string; status: string; finishedAt: Date | string | null }>(
    `SELECT "id", "status", "finishedAt" FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (!state) return new Map();
  const stamp = completedStamp({ ...state, finishedAt: state.finishedAt === null ? null : new Date(state.finishedAt) });
  // Not through readOfCompletedRuns' chain of reads: this is read inside other chained reads (compare's
  // aggregates), which would then wait for themselves.
  if (stamp === null) return countTrials(db, runId);
  return completedCounts.getOrCreate(`${databaseUrlOf(db)}\u0000${stamp}`, () => countTrials(db, runId));
}

const completedCounts = createPromiseCache<Map<string, TrialCountGroup[]>>(100);

async function countTrials(db: Db, runId: string): Promise<Map<string, TrialCountGroup[]>> {
  const sql = sqlOf(db);
  const groups = await sql.all<{
    metric: string;
    passes: number | string;
    trials: number | string;
    rows: number | string;
  }>(
    `SELECT g."metric" AS "metric", g."passes" AS "passes", g."trials" AS "trials", COUNT(*) AS "rows"
     FROM (SELECT j."metric" AS "metric", j."rowId" AS "rowId", COUNT(*) AS "trials",
             SUM(CASE WHEN j."passed" THEN 1 ELSE 0 END) AS "passes"
           FROM "JudgmentItem" j${sqlFragments(sql).indexHint("JudgmentItem_pairing_idx")}
           WHERE j."runId" = ? AND j."status" = 'done' AND j."passed" IS NOT NULL
           GROUP BY j."metric", j."rowId") g
     GROUP BY g."metric", g."passes", g."trials"
     ORDER BY g."metric", g."trials", g."passes"`,
    [runId],
  );
  const byMetric = new Map<string, TrialCountGroup[]>();
  for (const group of groups) {
    const list = byMetric.get(group.metric) ?? [];
    list.push({ passes: Number(group.passes), trials: Number(group.trials), rows: Number(group.rows) });
    byMetric.set(group.metric, list);
  }
  return byMetric;
}

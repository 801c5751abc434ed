import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/**
 * Folds the kept tallies' deltas into their totals and returns how many totals changed. On PostgreSQL every
 * write to the judgments adds a delta row to RunMetricTally and RunRowTally (so that concurrent writers never
 * wait on one row's lock); readers sum them with the totals, so a fold changes no figure, only how many rows
 * a reader sums. The judging processes call it from their heartbeat; one process folds at a time. SQLite's
 * triggers write the totals directly: nothing to fold.
 */
export async function foldKeptTallies(db: Db): Promise<number> {
  const sql = sqlOf(db);
  const statement = sqlFragments(sql).foldKeptTallies;
  if (!statement) return 0;
  const found = await sql.get<{ folded: number | null }>(statement);
  return Number(found?.folded ?? 0);
}

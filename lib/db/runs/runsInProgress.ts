import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";

/**
 * A measurement whose process gave no sign of life (heartbeatAt) for this long has stopped (its server was
 * stopped): it may be taken over, and it no longer counts as in progress.
 */
export const MEASUREMENT_STALE_MS = 30_000;

/**
 * The condition, in SQL, that a `measuring` alignment's process has stopped: no heartbeat for
 * MEASUREMENT_STALE_MS by the store's clock, never by the clock of the process asking, so a server whose
 * own clock is off neither takes over a live measurement nor counts a stopped one as in progress.
 */
export function measurementStoppedSql(store: SqlRunner): string {
  return `("heartbeatAt" IS NULL OR "heartbeatAt" < ${sqlFragments(store).storeTime(-MEASUREMENT_STALE_MS)})`;
}

/**
 * What ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER counts for one user, and the one place that starts anything it
 * counts. In progress: the runs they started that are planning, queued or running, and the alignments they
 * started that are being measured (a measurement spends on the judge as a run does) by a live process; one
 * whose process stopped (no sign of life for MEASUREMENT_STALE_MS) spends nothing until it is measured again,
 * which starts it here again.
 */
const countInProgressSql = (runner: SqlRunner) => `SELECT
  (SELECT COUNT(*) FROM "Run"
    WHERE "createdById" = @userId AND "status" IN ('planning', 'pending', 'running'))
  + (SELECT COUNT(*) FROM "JudgeAlignment"
    WHERE "createdById" = @userId AND "status" = 'measuring' AND NOT ${measurementStoppedSql(runner)})
  AS "inProgress"`;

export async function countInProgress(runner: SqlRunner, userId: string): Promise<number> {
  const row = await runner.get<{ inProgress: number }>(countInProgressSql(runner), { userId });
  return Number(row?.inProgress ?? 0);
}

/** A user's ceiling on runs in progress; null where none applies (no limit set, or sign-in off). */
export type RunsInProgressLimit = { userId: string; max: number } | null;

export type StartedWithinLimit<T> = { ok: true; value: T } | { ok: false; inProgress: number };

/**
 * Runs `start`, the write that puts one more run or measurement in progress for the user (a run's first row,
 * an alignment's, a measurement claimed again), only while they have fewer than the limit in progress: the
 * count and the write in one transaction, so parallel starts are counted one after another. Counting in one
 * transaction and writing in the next let 20 parallel starts with a limit of 1 start 3 runs on PostgreSQL.
 * There the user's row is locked first (FOR UPDATE), so one user's starts queue on it while other users'
 * do not, and each count reads what the one before committed (READ COMMITTED); SQLite's transaction holds
 * the store's only write lock from its BEGIN IMMEDIATE, which serialises them the same way.
 */
export async function startWithinRunsInProgressLimit<T>(
  db: Db,
  limit: RunsInProgressLimit,
  start: (tx: SqlRunner) => Promise<T>,
): Promise<StartedWithinLimit<T>> {
  return sqlOf(db).transaction(
    async (tx): Promise<StartedWithinLimit<T>> => {
      if (limit) {
        await tx.get(`SELECT "id" FROM "User" WHERE "id" = ?${sqlFragments(tx).forUpdate()}`, [limit.userId]);
        const inProgress = await countInProgress(tx, limit.userId);
        if (inProgress >= limit.max) return { ok: false, inProgress };
      }
      return { ok: true, value: await start(tx) };
    },
    { readCommitted: true },
  );
}

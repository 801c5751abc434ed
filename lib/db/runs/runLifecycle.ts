import { refreshPlannerStatistics, sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";
import { sqlFragments } from "../store/sqlFragments";
import { recomputeRunSpending } from "../work/runSpending";
import { recordRunEvent } from "./runEvents";
import { startWithinRunsInProgressLimit, type RunsInProgressLimit, type StartedWithinLimit } from "./runsInProgress";
import { decodeRunConfig } from "./storedRun";

/**
 * Run status and the execution lease. A runner claims a run's lease before it
 * works and renews it while it does; another process may resume the run only
 * once the lease has lapsed (or when told to take over, e.g. `eval --resume`).
 * Leases are set and found lapsed by the store's clock (readStoreClock), never
 * by the clock of the machine asking, so a worker whose clock is off neither
 * takes over a live run nor leaves a dead one; a run's start, finish and
 * events are stamped by the same clock.
 */
/** What claiming a run found: whether this process now holds it, and what the claim was (a first start, or a resume). */
export type RunClaim = {
  claimed: boolean;
  resumed: boolean;
  pendingJudgments: number;
  /** When, by the store's clock. */
  at: Date;
  /** The coordinator this claim replaced (its lease lapsed, or it was taken over), if another. */
  previousOwner?: string | null;
};

/**
 * Claims the run and records what kind of start this is: a run that was
 * "running" under another (dead or taken-over) runner, or released mid-way,
 * is resumed after an interruption, and says so in its events with the
 * number of judgments still pending.
 *
 * `helpingSince` (the store's time) is given by a worker that was helping the
 * run when it found the coordinator gone: it judged while no coordinator
 * counted working time, so the time since the later of that and the gone
 * coordinator's last heartbeat is added to the run's working time.
 */
export async function claimRun(
  db: Db,
  runId: string,
  owner: string,
  ttlMs: number,
  takeover = false,
  helpingSince: Date | null = null,
): Promise<RunClaim> {
  // No read-then-write transaction: in WAL mode a read transaction that must then write fails at once
  // (SQLITE_BUSY) when a runner wrote meanwhile. The claim is one conditional write that also requires
  // the state read just before, so what it records is what it replaced.
  const now = await readStoreClock(sqlOf(db));
  const before = await db.run.findUnique({
    where: { id: runId },
    select: { status: true, leaseOwner: true, startedAt: true, pauseReason: true },
  });
  // A run paused because the store was unavailable resumes by itself; one paused at its budget waits for a raise.
  const storePaused = before?.status === "paused" && before.pauseReason === STORE_UNAVAILABLE;
  if (!before || (before.status !== "pending" && before.status !== "running" && !storePaused))
    return { claimed: false, resumed: false, pendingJudgments: 0, at: now };
  // Only a lapsed lease: a coordinator that let its lease go (releaseRunLease) counted its time up to then.
  const helpedMs =
    helpingSince && before.status === "running" && before.leaseOwner !== null && before.leaseOwner !== owner
      ? await unattendedHelpMs(db, before.leaseOwner, helpingSince, now)
      : 0;
  const result = await db.run.updateMany({
    where: {
      id: runId,
      status: before.status,
      leaseOwner: before.leaseOwner,
      ...(takeover ? {} : { OR: [{ leaseOwner: null }, { leaseOwner: owner }, { leaseExpiresAt: { lt: now } }] }),
    },
    data: {
      leaseOwner: owner,
      leaseExpiresAt: new Date(now.getTime() + ttlMs),
      status: "running",
      ...(helpedMs > 0 ? { workingMs: { increment: helpedMs } } : {}),
      ...(storePaused ? { pauseReason: null, errorMessage: null } : {}),
      ...(before.startedAt === null ? { startedAt: now } : {}),
    },
  });
  if (result.count !== 1) return { claimed: false, resumed: false, pendingJudgments: 0, at: now };
  const resumed = (before.status === "running" && before.leaseOwner !== owner) || storePaused;
  const pendingJudgments = await db.judgmentItem.count({ where: { runId, status: { in: ["pending", "running"] } } });
  if (resumed || before.startedAt === null)
    await recordRunEvent(db, runId, {
      kind: resumed ? "resumed" : "started",
      pendingJudgments,
      worker: owner,
      at: now,
    });
  return {
    claimed: true,
    resumed,
    pendingJudgments,
    at: now,
    previousOwner: before.leaseOwner !== owner ? before.leaseOwner : null,
  };
}

/**
 * How long a helper judged a run with no coordinator counting working time: from the later of when it began
 * helping and when the gone coordinator last heartbeat (its working time was added up to about then) to now.
 */
async function unattendedHelpMs(db: Db, goneOwner: string, helpingSince: Date, now: Date): Promise<number> {
  const gone = await db.worker.findUnique({ where: { id: goneOwner }, select: { heartbeatAt: true } });
  const from = Math.max(helpingSince.getTime(), gone?.heartbeatAt.getTime() ?? helpingSince.getTime());
  return Math.max(0, Math.round(now.getTime() - from));
}

export async function claimRunLease(
  db: Db,
  runId: string,
  owner: string,
  ttlMs: number,
  takeover = false,
): Promise<boolean> {
  return (await claimRun(db, runId, owner, ttlMs, takeover)).claimed;
}

/**
 * Renews the lease and adds the time worked since the last renewal to the run's
 * working time; false when another process took the run over or it was cancelled.
 */
export async function renewRunLease(
  db: Db,
  runId: string,
  owner: string,
  ttlMs: number,
  workedMs = 0,
): Promise<boolean> {
  const sql = sqlOf(db);
  const changed = await sql.run(
    `UPDATE "Run" SET "leaseExpiresAt" = ${sqlFragments(sql).storeTime(ttlMs)}, "workingMs" = "workingMs" + ?
     WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
    [Math.round(workedMs), runId, owner],
  );
  return changed === 1;
}

/** Adds working time without a lease (a runner that noticed its run was cancelled). */
export async function addRunWorkingTime(db: Db, runId: string, workedMs: number): Promise<void> {
  await db.run.updateMany({ where: { id: runId }, data: { workingMs: { increment: Math.round(workedMs) } } });
}

/**
 * Completes a run, only if nothing of it is pending or held by a worker: a
 * helper's claim taken between the coordinator's last look and this write
 * keeps the run running. True when it completed.
 */
export async function finishRun(db: Db, runId: string, owner: string, workedMs = 0): Promise<boolean> {
  const unfinished = { some: { status: { in: ["pending", "running"] } } };
  const now = await readStoreClock(sqlOf(db));
  const result = await db.run.updateMany({
    where: {
      id: runId,
      leaseOwner: owner,
      status: "running",
      NOT: [{ judgments: unfinished }, { generations: unfinished }],
    },
    data: {
      status: "completed",
      finishedAt: now,
      leaseOwner: null,
      leaseExpiresAt: null,
      rejudgeTotal: null,
      workingMs: { increment: Math.round(workedMs) },
    },
  });
  if (result.count === 0) return false;
  await recordRunEvent(db, runId, { kind: "finished", pendingJudgments: 0, worker: owner, at: now });
  // The run page is read next, and on PostgreSQL planned from statistics that may not yet know this run.
  await refreshPlannerStatistics(db, ["JudgmentItem", "ChunkJudgment", "RunRowVerdict", "Generation"]);
  return true;
}

export async function releaseRunLease(db: Db, runId: string, owner: string, workedMs = 0): Promise<void> {
  await db.run.updateMany({
    where: { id: runId, leaseOwner: owner },
    data: { leaseOwner: null, leaseExpiresAt: null, workingMs: { increment: Math.round(workedMs) } },
  });
}

export async function failRun(db: Db, runId: string, owner: string, message: string, workedMs = 0): Promise<void> {
  const now = await readStoreClock(sqlOf(db));
  const result = await db.run.updateMany({
    where: { id: runId, leaseOwner: owner },
    data: {
      status: "failed",
      errorMessage: message,
      finishedAt: now,
      leaseOwner: null,
      leaseExpiresAt: null,
      rejudgeTotal: null,
      workingMs: { increment: Math.round(workedMs) },
    },
  });
  if (result.count === 1) await recordRunEvent(db, runId, { kind: "failed", worker: owner, at: now });
}

/** Why a run is paused: the database stayed busy or full (it resumes by itself), or it reached its budget. */
export const STORE_UNAVAILABLE = "store_unavailable";
export const BUDGET_REACHED = "budget";
export type PauseReason = typeof STORE_UNAVAILABLE | typeof BUDGET_REACHED;

/** Stops a run without failing it: its pending work stays pending, and the reason says what it waits for. */
export async function pauseRun(
  db: Db,
  runId: string,
  owner: string,
  reason: PauseReason,
  message: string,
  workedMs = 0,
): Promise<boolean> {
  const result = await db.run.updateMany({
    where: { id: runId, leaseOwner: owner, status: "running" },
    data: {
      status: "paused",
      pauseReason: reason,
      errorMessage: message,
      leaseOwner: null,
      leaseExpiresAt: null,
      workingMs: { increment: Math.round(workedMs) },
    },
  });
  return result.count === 1;
}

/**
 * Makes a failed or paused run runnable again (from the UI's Resume button or
 * `eval --resume`): its finished judgments stay, its pending ones are done
 * next. False when the run is in another state (running, completed…).
 */
export async function reopenRun(db: Db, runId: string): Promise<boolean> {
  const reopened = await reopenRunWithinLimit(db, runId, null);
  return reopened.ok && reopened.value;
}

/**
 * reopenRun for a signed-in user's request (the Resume button, POST /api/v1/runs/{id}/resume, a raised
 * budget): the reopened run is one more in progress, so it is made only while the user is under
 * ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER, counted in the same transaction (runsInProgress.ts), so that a burst
 * of resumes cannot pass the limit that a burst of new runs cannot. `value` is reopenRun's answer.
 */
export async function reopenRunWithinLimit(
  db: Db,
  runId: string,
  limit: RunsInProgressLimit,
): Promise<StartedWithinLimit<boolean>> {
  return startWithinRunsInProgressLimit(db, limit, async (tx) => {
    const changed = await tx.run(
      `UPDATE "Run" SET "status" = 'pending', "pauseReason" = NULL, "errorMessage" = NULL, "finishedAt" = NULL,
        "leaseOwner" = NULL, "leaseExpiresAt" = NULL
       WHERE "id" = ? AND "status" IN ('failed', 'paused')`,
      [runId],
    );
    return changed === 1;
  });
}

export async function cancelRun(db: Db, runId: string): Promise<boolean> {
  const now = await readStoreClock(sqlOf(db));
  const result = await db.run.updateMany({
    where: { id: runId, status: { in: ["pending", "running", "paused"] } },
    data: { status: "cancelled", finishedAt: now, leaseOwner: null, leaseExpiresAt: null, rejudgeTotal: null },
  });
  if (result.count === 1) await recordRunEvent(db, runId, { kind: "cancelled", at: now });
  return result.count === 1;
}

export async function getRunStatus(db: Db, runId: string): Promise<string | null> {
  return (await db.run.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? null;
}

/**
 * What a worker helping a run asks every second: the run's status, whether it is running with no live
 * coordinator (its lease lapsed or let go), and the store's time of the answer.
 */
export async function readRunLease(
  db: Db,
  runId: string,
): Promise<{ status: string | null; coordinatorGone: boolean; at: Date | null }> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  const row = await sql.get<{ status: string; lapsed: number; at: string }>(
    `SELECT "status", CASE WHEN "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${storeTime()} THEN 1 ELSE 0 END AS "lapsed",
       ${storeTime()} AS "at"
     FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (!row) return { status: null, coordinatorGone: false, at: null };
  return {
    status: row.status,
    coordinatorGone: row.status === "running" && Number(row.lapsed) === 1,
    at: new Date(row.at),
  };
}

/** Runs another process may pick up: pending, running with a lapsed lease, or paused while the store was unavailable. */
export async function listResumableRuns(db: Db): Promise<string[]> {
  const now = await readStoreClock(sqlOf(db));
  const runs = await db.run.findMany({
    where: {
      OR: [
        {
          status: { in: ["pending", "running"] },
          OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
        },
        { status: "paused", pauseReason: STORE_UNAVAILABLE },
      ],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return runs.map((run) => run.id);
}

/**
 * Runs another worker may help with: running under a live coordinator and
 * with work still pending (generations or judgments). Found through the
 * (runId, status, id) indexes, so the question costs a seek per running run;
 * the runs the asking worker already works on (`besides`) are not asked
 * about. That seek is dear on a busy run: results leave the front of its
 * pending range dead until vacuumed, and bench:scale measured 11 ms a
 * question, 1 ms of database time per judgment, with four workers asking
 * five times a second about the run they were all helping.
 */
export async function listRunsNeedingHelp(db: Db, besides: readonly string[] = []): Promise<string[]> {
  const now = await readStoreClock(sqlOf(db));
  const runs = await db.run.findMany({
    where: {
      status: "running",
      leaseExpiresAt: { gte: now },
      ...(besides.length > 0 ? { id: { notIn: [...besides] } } : {}),
      OR: [{ judgments: { some: { status: "pending" } } }, { generations: { some: { status: "pending" } } }],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return runs.map((run) => run.id);
}

export type RejudgeSelection = "errored" | "errored_or_failed";

/** The judgments a re-judge puts back to pending (the estimate counts the same ones). */
export function rejudgeWhere(runId: string, which: RejudgeSelection) {
  return which === "errored"
    ? { runId, status: "error" }
    : { runId, OR: [{ status: "error" }, { status: "done", OR: [{ rating: "no" }, { passed: false }] }] };
}

/**
 * Puts chosen finished judgments back to pending (errored ones, or those that
 * failed), deleting their per-chunk verdicts, so a new pass re-judges only them.
 * Errors are never cached, so they always reach the judge again; failed ones
 * get the cached answer back unless a second opinion is asked for, which
 * bypasses the cache (and replaces what it held) for this pass.
 */
export async function resetJudgmentsForRejudge(
  db: Db,
  runId: string,
  which: RejudgeSelection,
  options: { secondOpinion?: boolean } = {},
): Promise<number> {
  const where = rejudgeWhere(runId, which);
  const { bulkTallies } = sqlFragments(sqlOf(db));
  const now = await readStoreClock(sqlOf(db));
  const reset = await db.$transaction(async (tx) => {
    // A cancelled run keeps its unfinished work unfinished: re-judging it would silently resume everything.
    const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, config: true } });
    if (run.status === "cancelled" || run.status === "pending" || run.status === "running") return 0;
    // Failed generations are retried too, or their rows would only reproduce "generation failed".
    await tx.generation.updateMany({
      where: { runId, status: "error" },
      data: { status: "pending", errorMessage: null, finishedAt: null },
    });
    // Keyed by the same filter, never by a list of the chosen ids: the verdicts first, while the items still match it.
    await tx.chunkJudgment.deleteMany({ where: { judgment: where } });
    // Thousands of judgments in one statement: their tallies kept in a few grouped writes (sqlFragments).
    if (bulkTallies) await tx.$queryRawUnsafe(bulkTallies.begin);
    const { count } = await tx.judgmentItem.updateMany({
      where,
      data: {
        status: "pending",
        rating: null,
        score: null,
        passed: null,
        rationale: null,
        errorMessage: null,
        details: null,
        cacheHit: false,
        attempts: 0,
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
        latencyMs: null,
        finishedAt: null,
      },
    });
    if (bulkTallies) await tx.$queryRawUnsafe(bulkTallies.end);
    if (count > 0) {
      // Set on every re-judge, so an earlier second opinion does not keep bypassing the cache.
      const config = JSON.stringify({ ...decodeRunConfig(run.config), refreshCache: options.secondOpinion === true });
      await tx.run.update({
        where: { id: runId },
        data: {
          status: "pending",
          finishedAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          config,
          rejudgeTotal: count,
        },
      });
      await recordRunEvent(tx, runId, { kind: "rejudge_started", pendingJudgments: count, at: now });
    }
    return count;
  });
  // The run's spending is what its current results cost (as it always read): the results put back are not.
  if (reset > 0) await sqlOf(db).transaction((tx) => recomputeRunSpending(tx, runId));
  return reset;
}

export async function renameRun(db: Db, runId: string, name: string, tags: string[]): Promise<void> {
  await db.run.updateMany({ where: { id: runId }, data: { name, tags: JSON.stringify(tags) } });
}

/** Deletes a run; its judgments, per-chunk verdicts and generations go with it (cascade). A running run is cancelled first. */
export async function deleteRun(db: Db, runId: string): Promise<void> {
  await cancelRun(db, runId);
  await db.run.deleteMany({ where: { id: runId } });
}

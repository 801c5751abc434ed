import { refreshPlannerStatistics, sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";
import { recordRunEvent } from "./runEvents";
import { startWithinRunsInProgressLimit, type RunsInProgressLimit, type StartedWithinLimit } from "./runsInProgress";

/**
 * Run status: finishing, failing, pausing, reopening, cancelling and
 * deleting a run. The execution lease (claiming, renewing and releasing a
 * run, and finding runs to resume or help) is in runLease.ts. Times are the
 * store's clock (readStoreClock), never the clock of the machine asking.
 */
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

export async function renameRun(db: Db, runId: string, name: string, tags: string[]): Promise<void> {
  await db.run.updateMany({ where: { id: runId }, data: { name, tags: JSON.stringify(tags) } });
}

/** Deletes a run; its judgments, per-chunk verdicts and generations go with it (cascade). A running run is cancelled first. */
export async function deleteRun(db: Db, runId: string): Promise<void> {
  await cancelRun(db, runId);
  await db.run.deleteMany({ where: { id: runId } });
}

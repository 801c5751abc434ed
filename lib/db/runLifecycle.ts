import type { Db } from "./client";
import { decodeRunConfig } from "./storedRun";

/**
 * Run status and the execution lease. A runner claims a run's lease before it
 * works and renews it while it does; another process may resume the run only
 * once the lease has lapsed (or when told to take over, e.g. `eval --resume`).
 */
export async function claimRunLease(
  db: Db,
  runId: string,
  owner: string,
  ttlMs: number,
  takeover = false,
): Promise<boolean> {
  const now = new Date();
  const expires = new Date(now.getTime() + ttlMs);
  const result = await db.run.updateMany({
    where: {
      id: runId,
      status: { in: ["pending", "running"] },
      ...(takeover ? {} : { OR: [{ leaseOwner: null }, { leaseOwner: owner }, { leaseExpiresAt: { lt: now } }] }),
    },
    data: { leaseOwner: owner, leaseExpiresAt: expires, status: "running" },
  });
  if (result.count === 1) await db.run.updateMany({ where: { id: runId, startedAt: null }, data: { startedAt: now } });
  return result.count === 1;
}

/** Renews the lease; false when another process took the run over or it was cancelled. */
export async function renewRunLease(db: Db, runId: string, owner: string, ttlMs: number): Promise<boolean> {
  const result = await db.run.updateMany({
    where: { id: runId, leaseOwner: owner, status: "running" },
    data: { leaseExpiresAt: new Date(Date.now() + ttlMs) },
  });
  return result.count === 1;
}

export async function finishRun(db: Db, runId: string, owner: string): Promise<void> {
  await db.run.updateMany({
    where: { id: runId, leaseOwner: owner, status: "running" },
    data: { status: "completed", finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null },
  });
}

export async function releaseRunLease(db: Db, runId: string, owner: string): Promise<void> {
  await db.run.updateMany({
    where: { id: runId, leaseOwner: owner },
    data: { leaseOwner: null, leaseExpiresAt: null },
  });
}

export async function failRun(db: Db, runId: string, owner: string, message: string): Promise<void> {
  await db.run.updateMany({
    where: { id: runId, leaseOwner: owner },
    data: { status: "failed", errorMessage: message, finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null },
  });
}

export async function cancelRun(db: Db, runId: string): Promise<boolean> {
  const result = await db.run.updateMany({
    where: { id: runId, status: { in: ["pending", "running"] } },
    data: { status: "cancelled", finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null },
  });
  return result.count === 1;
}

export async function getRunStatus(db: Db, runId: string): Promise<string | null> {
  return (await db.run.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? null;
}

/** Runs another process may pick up: pending, or running with a lapsed lease. */
export async function listResumableRuns(db: Db): Promise<string[]> {
  const runs = await db.run.findMany({
    where: {
      status: { in: ["pending", "running"] },
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: new Date() } }],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return runs.map((run) => run.id);
}

/**
 * Puts chosen finished judgments back to pending (errored ones, or those that
 * failed), deleting their per-chunk verdicts, so a new pass re-judges only them.
 */
export async function resetJudgmentsForRejudge(
  db: Db,
  runId: string,
  which: "errored" | "errored_or_failed",
): Promise<number> {
  const where =
    which === "errored"
      ? { runId, status: "error" }
      : { runId, OR: [{ status: "error" }, { status: "done", OR: [{ rating: "no" }, { passed: false }] }] };
  return db.$transaction(async (tx) => {
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
    const { count } = await tx.judgmentItem.updateMany({
      where,
      data: {
        status: "pending",
        rating: null,
        score: null,
        passed: null,
        rationale: null,
        errorMessage: null,
        cacheHit: false,
        attempts: 0,
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
        latencyMs: null,
        finishedAt: null,
      },
    });
    if (count > 0) {
      const config =
        which === "errored_or_failed"
          ? JSON.stringify({ ...decodeRunConfig(run.config), refreshCache: true })
          : run.config;
      await tx.run.update({
        where: { id: runId },
        data: { status: "pending", finishedAt: null, leaseOwner: null, leaseExpiresAt: null, config },
      });
    }
    return count;
  });
}

export async function renameRun(db: Db, runId: string, name: string, tags: string[]): Promise<void> {
  await db.run.updateMany({ where: { id: runId }, data: { name, tags: JSON.stringify(tags) } });
}

/** Deletes a run; its judgments, per-chunk verdicts and generations go with it (cascade). A running run is cancelled first. */
export async function deleteRun(db: Db, runId: string): Promise<void> {
  await cancelRun(db, runId);
  await db.run.deleteMany({ where: { id: runId } });
}

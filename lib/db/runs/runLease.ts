import { sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";
import { sqlFragments } from "../store/sqlFragments";
import { recordRunEvent } from "./runEvents";
import { STORE_UNAVAILABLE } from "./runLifecycle";

/**
 * The execution lease of a run. A runner claims a run's lease before it
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

export async function releaseRunLease(db: Db, runId: string, owner: string, workedMs = 0): Promise<void> {
  await db.run.updateMany({
    where: { id: runId, leaseOwner: owner },
    data: { leaseOwner: null, leaseExpiresAt: null, workingMs: { increment: Math.round(workedMs) } },
  });
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

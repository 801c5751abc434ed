import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/** web-align: a web server with ASSAY_WEB_WORKER=0, which judges no run but makes the Align page's LLM calls. */
export type WorkerKind = "web" | "web-align" | "worker" | "cli";

export type WorkerInfo = { id: string; kind: WorkerKind; host: string; pid: number; version: string };

/** A worker as the runs page shows it; `gone` once it stopped heartbeating for the timeout (or stopped). */
export type WorkerStatus = WorkerInfo & {
  startedAt: Date;
  heartbeatAgeMs: number;
  runId: string | null;
  runName: string | null;
  inFlight: number;
  /** The endpoint's shared in-flight slots the store says it holds: a silent worker's throttle the others. */
  slotsHeld: number;
  completed: number;
  stopped: boolean;
  gone: boolean;
};

/** Records a worker as alive (a new process, or one whose row a clean-up removed). */
export async function registerWorker(db: Db, worker: WorkerInfo): Promise<void> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  await sql.run(
    `INSERT INTO "Worker" ("id", "kind", "host", "pid", "version", "startedAt", "heartbeatAt", "inFlight", "completed")
     VALUES (?, ?, ?, ?, ?, ${storeTime()}, ${storeTime()}, 0, 0)
     ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = excluded."heartbeatAt", "stoppedAt" = NULL`,
    [worker.id, worker.kind, worker.host, worker.pid, worker.version],
  );
}

/** The heartbeat: alive now, judging `runId` with `inFlight` calls out, `completed` results written so far. False if the row is gone. */
export async function heartbeatWorker(
  db: Db,
  workerId: string,
  state: { runId: string | null; inFlight: number; completed: number },
): Promise<boolean> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  const changed = await sql.run(
    `UPDATE "Worker" SET "heartbeatAt" = ${storeTime()}, "runId" = ?, "inFlight" = ?, "completed" = ? WHERE "id" = ? AND "stoppedAt" IS NULL`,
    [state.runId, state.inFlight, state.completed, workerId],
  );
  return changed === 1;
}

/** A clean stop: the worker is shown as stopped, and anything it still held is free at once. */
export async function markWorkerStopped(db: Db, workerId: string): Promise<void> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  await sql.run(`UPDATE "Worker" SET "stoppedAt" = ${storeTime()}, "inFlight" = 0, "runId" = NULL WHERE "id" = ?`, [
    workerId,
  ]);
}

/**
 * Workers seen within `windowMs` (live ones, and gone or stopped ones for a
 * while, so a crash shows rather than vanishing), newest first, at most `take`.
 */
export async function listRecentWorkers(
  db: Db,
  options: { timeoutMs: number; windowMs: number; take?: number },
): Promise<WorkerStatus[]> {
  const sql = sqlOf(db);
  const { storeTime, ageMs } = sqlFragments(sql);
  const rows = await sql.all<{
    id: string;
    kind: WorkerKind;
    host: string;
    pid: number;
    version: string;
    startedAt: string;
    heartbeatAgeMs: number;
    runId: string | null;
    runName: string | null;
    inFlight: number;
    slotsHeld: number;
    completed: number;
    stoppedAt: string | null;
  }>(
    `SELECT w."id", w."kind", w."host", w."pid", w."version", w."startedAt", ${ageMs(`w."heartbeatAt"`)} AS "heartbeatAgeMs",
       w."runId", r."name" AS "runName", w."inFlight", w."completed", w."stoppedAt",
       (SELECT COUNT(*) FROM "InFlightSlot" s WHERE s."holder" = w."id") AS "slotsHeld"
     FROM "Worker" w LEFT JOIN "Run" r ON r."id" = w."runId"
     WHERE w."heartbeatAt" >= ${storeTime(-options.windowMs)}
     ORDER BY w."stoppedAt" IS NOT NULL, w."heartbeatAt" DESC LIMIT ?`,
    [options.take ?? 50],
  );
  return rows.map((row) => {
    const stopped = row.stoppedAt !== null;
    return {
      id: row.id,
      kind: row.kind,
      host: row.host,
      pid: Number(row.pid),
      version: row.version,
      startedAt: new Date(row.startedAt),
      heartbeatAgeMs: Math.max(0, Number(row.heartbeatAgeMs)),
      runId: stopped ? null : row.runId,
      runName: stopped ? null : row.runName,
      inFlight: stopped ? 0 : Number(row.inFlight),
      slotsHeld: Number(row.slotsHeld),
      completed: Number(row.completed),
      stopped,
      gone: stopped || Number(row.heartbeatAgeMs) > options.timeoutMs,
    };
  });
}

/** Removes workers not seen for `olderThanMs` (a day by default): the table stays the size of the fleet. */
export async function deleteOldWorkers(db: Db, olderThanMs = 24 * 60 * 60 * 1000): Promise<number> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  return sql.run(`DELETE FROM "Worker" WHERE "heartbeatAt" < ${storeTime(-olderThanMs)}`);
}

import type { Db } from "../client";

/**
 * A run's history as rows: started, resumed after an interruption (with how
 * many judgments were still pending), re-judge started, finished, failed,
 * cancelled. The run page reads them so an interruption is visible.
 */
export type RunEventKind = "started" | "resumed" | "rejudge_started" | "finished" | "failed" | "cancelled";

export type RunEventRecord = { kind: RunEventKind; at: Date; pendingJudgments: number | null; worker: string | null };

type EventWriter = Pick<Db, "runEvent">;

export async function recordRunEvent(
  db: EventWriter,
  runId: string,
  event: { kind: RunEventKind; pendingJudgments?: number | null; worker?: string | null; at?: Date },
): Promise<void> {
  await db.runEvent.create({
    data: {
      runId,
      kind: event.kind,
      at: event.at ?? new Date(),
      pendingJudgments: event.pendingJudgments ?? null,
      worker: event.worker ?? null,
    },
  });
}

/** A run's events, oldest first (a run has a handful: one per start, resume, re-judge and end). */
export async function listRunEvents(db: Db, runId: string, take = 100): Promise<RunEventRecord[]> {
  const events = await db.runEvent.findMany({
    where: { runId },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    take,
    select: { kind: true, at: true, pendingJudgments: true, worker: true },
  });
  return events.map((event) => ({ ...event, kind: event.kind as RunEventKind }));
}

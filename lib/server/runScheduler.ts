import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { listResumableRuns } from "@/lib/db/runs/runLifecycle";
import { deleteAbandonedPlans } from "@/lib/db/work/runWrites";
import { getRun } from "@/lib/db/runs/runQueries";
import { createEngineDeps, JudgeUnavailableError } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { logServerError } from "./logError";

/**
 * Executes runs inside the web server process, in the background of the
 * request that started them. State that matters lives in the database (work
 * items and the run lease), so this map only stops one process from running
 * the same run twice; after a restart the resumer picks up whatever was left.
 */
type SchedulerState = {
  active: Map<string, Promise<void>>;
  workerId: string;
  resumer: NodeJS.Timeout | null;
  unservable: Set<string>;
};
const state: SchedulerState = ((globalThis as unknown as { assayScheduler?: SchedulerState }).assayScheduler ??= {
  active: new Map(),
  workerId: `web-${randomUUID().slice(0, 8)}`,
  resumer: null,
  unservable: new Set(),
});

export function executeRunInBackground(runId: string): void {
  if (state.active.has(runId)) return;
  const task = (async () => {
    const db = getDb();
    const run = await getRun(db, runId);
    if (!run) return;
    const deps = createEngineDeps(db, run, {
      workerId: state.workerId,
      // One line per resume, so a restart's effect on a run can be found in the server log.
      onResumed: ({ pendingJudgments }) =>
        console.log(`[assay] resumed run ${runId} after an interruption; ${pendingJudgments} judgments were pending`),
    });
    await runEvaluation(run, deps);
  })()
    .catch((error: unknown) => {
      // A run this process cannot serve (its model endpoint is not configured here) is left alone:
      // it may belong to a CLI run with its own key. Said once, not every sweep.
      if (error instanceof JudgeUnavailableError) {
        if (!state.unservable.has(runId))
          console.warn(
            `[assay] run ${runId} is waiting for a model endpoint this server does not have: ${error.message}`,
          );
        state.unservable.add(runId);
      } else {
        logServerError(`run ${runId} stopped`, error);
      }
    })
    .finally(() => state.active.delete(runId));
  state.active.set(runId, task);
}

export function isRunActiveHere(runId: string): boolean {
  return state.active.has(runId);
}

/**
 * Resumes interrupted runs at start-up, then keeps looking for runs whose runner died (lapsed lease)
 * and runs paused because the database was unavailable (they resume by themselves, here).
 */
export function startRunResumer(intervalMs = 15_000): void {
  if (state.resumer) return;
  const sweep = async () => {
    try {
      // A run whose planner died part-way was never runnable; it is removed once its planning lease lapses.
      await deleteAbandonedPlans(getDb());
      for (const runId of await listResumableRuns(getDb()))
        if (!state.unservable.has(runId)) executeRunInBackground(runId);
    } catch (error) {
      logServerError("run resumer", error);
    }
  };
  // sweep catches its own errors, so nothing waits on it: not start-up, not the timer.
  void sweep();
  state.resumer = setInterval(() => void sweep(), intervalMs);
  state.resumer.unref();
}

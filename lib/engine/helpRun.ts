import type { RunRecord } from "@/lib/db/runs/runQueries";
import { readRunLease } from "@/lib/db/runs/runLease";
import type { EngineDeps } from "./runEvaluation";
import { createRunGate } from "./runGate";
import { workerPresence } from "./worker/workerPresence";
import { workRunPass } from "./workRun";

const STATUS_POLL_MS = 1_000;

export type HelpOutcome = {
  /** Results it wrote. */
  written: number;
  /**
   * It stopped because the run is running with no live coordinator (its lease lapsed or was let go): the
   * caller takes over coordination now (runEvaluation with `helpingSince`), not once nothing is left.
   */
  coordinatorGone: boolean;
  /** When it began helping, by the store's clock (null if the run was gone). */
  helpingSince: Date | null;
};

/**
 * Helps with a run another worker coordinates: claims and judges its
 * pending work until a pass finds nothing left to claim, the run stops
 * running (cancelled, paused, finished), its coordinator is found gone, or
 * this worker's gate meets the run's budget. It never finishes or pauses the
 * run: the coordinator does, once no worker holds any of its work.
 */
export async function helpRun(run: RunRecord, deps: EngineDeps): Promise<HelpOutcome> {
  const { db } = deps;
  const start = await readRunLease(db, run.id);
  if (start.status !== "running" || start.coordinatorGone)
    return { written: 0, coordinatorGone: start.coordinatorGone, helpingSince: start.at };
  const worker = await workerPresence(db, deps.workerKind);
  const gate = await createRunGate(db, run.id, worker.id);
  let stopped = false;
  let coordinatorGone = false;
  let written = 0;
  const poll = setInterval(() => {
    void Promise.all([readRunLease(db, run.id), gate.refreshFromStore()])
      .then(([lease]) => {
        if (lease.status !== "running") stopped = true;
        // A helper that kept judging a coordinator-less run to its end would leave its judging out of the
        // run's working time and its resume note at "0 pending": it stops claiming and takes over instead.
        if (lease.coordinatorGone) coordinatorGone = stopped = true;
      })
      .catch(() => {});
  }, STATUS_POLL_MS);
  const endActivity = worker.beginActivity(run.id, () => deps.limiter?.inFlight ?? 0);
  try {
    for (;;) {
      const before = written;
      const pass = await workRunPass(run, deps, {
        workerId: worker.id,
        gate,
        shouldStop: () => stopped || deps.stopRequested?.() === true,
        events: {
          onGenerated: () => {
            written += 1;
            worker.countCompleted();
          },
          onJudged: () => {
            written += 1;
            worker.countCompleted();
          },
        },
      });
      // Generation elsewhere still under way, or nothing more to claim: leave, the scheduler looks again.
      if (stopped || gate.reached !== null || pass.generationsOutstanding || written === before) {
        // One last look: a coordinator that died while this pass ran out of work is taken over now as well.
        if (!stopped && deps.stopRequested?.() !== true)
          coordinatorGone = (await readRunLease(db, run.id)).coordinatorGone;
        return { written, coordinatorGone, helpingSince: start.at };
      }
    }
  } finally {
    clearInterval(poll);
    endActivity();
  }
}

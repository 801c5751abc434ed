import type { RunRecord } from "@/lib/db/runs/runQueries";
import { getRunStatus } from "@/lib/db/runs/runLifecycle";
import type { EngineDeps } from "./runEvaluation";
import { createRunGate } from "./runGate";
import { workerPresence } from "./worker/workerPresence";
import { workRunPass } from "./workRun";

const STATUS_POLL_MS = 1_000;

/**
 * Helps with a run another worker coordinates: claims and judges its
 * pending work until a pass finds nothing left to claim, the run stops
 * running (cancelled, paused, finished), or this worker's gate meets the
 * run's budget. It never finishes or pauses the run: the coordinator does,
 * once no worker holds any of its work. Returns how many results it wrote.
 */
export async function helpRun(run: RunRecord, deps: EngineDeps): Promise<number> {
  const { db } = deps;
  const worker = await workerPresence(db, deps.workerKind);
  const gate = await createRunGate(db, run.id, worker.id);
  let stopped = false;
  let written = 0;
  const poll = setInterval(() => {
    void Promise.all([getRunStatus(db, run.id), gate.refreshFromStore()])
      .then(([status]) => {
        if (status !== "running") stopped = true;
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
      if (stopped || gate.reached !== null || pass.generationsOutstanding || written === before) return written;
    }
  } finally {
    clearInterval(poll);
    endActivity();
  }
}

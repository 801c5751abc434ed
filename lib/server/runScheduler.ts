import { getDb } from "@/lib/db/client";
import { startWorkerLoop, type WorkerLoop } from "@/lib/engine/worker/workerLoop";
import { webServerJudges } from "@/lib/engine/worker/workerSettings";
import { readSpendingLimits } from "@/lib/config/spendingLimits";
import { logServerError } from "./logError";

/**
 * The web server as a worker (lib/engine/worker/workerLoop.ts): it starts the
 * runs its users start at once, and every few seconds looks for runs to
 * resume or help with, as `npm run worker` processes do. State that matters
 * lives in the database (claims, leases, heartbeats), so this process can
 * die at any point; other workers, or this one after a restart, pick up
 * whatever was left. With ASSAY_WEB_WORKER=0 it judges nothing and leaves
 * every run to the worker processes.
 */
type SchedulerState = { loop: WorkerLoop | null };
const state: SchedulerState = ((globalThis as unknown as { assayScheduler?: SchedulerState }).assayScheduler ??= {
  loop: null,
});

function loop(): WorkerLoop | null {
  if (!webServerJudges()) return null;
  state.loop ??= startWorkerLoop({
    db: getDb(),
    kind: "web",
    pollMs: 5_000,
    log: (message) => console.log(`[assay] ${message}`),
    onRunError: (runId, error) => logServerError(runId === "(sweep)" ? "run resumer" : `run ${runId} stopped`, error),
    maxRunUsd: readSpendingLimits().maxRunUsd,
  });
  return state.loop;
}

/** Starts a run the user just started, reopened or re-judged; with the web worker off, a worker process picks it up. */
export function executeRunInBackground(runId: string): void {
  loop()?.coordinate(runId);
}

/** Starts judging a pairwise comparison the user just started or resumed; with the web worker off, a worker does. */
export function judgePairwiseInBackground(comparisonId: string): void {
  loop()?.judgeComparison(comparisonId);
}

export function isRunActiveHere(runId: string): boolean {
  return state.loop?.isActive(runId) ?? false;
}

/** Starts looking for work at start-up: interrupted runs resume, runs under way elsewhere get help. */
export function startRunResumer(): void {
  loop();
}

import type { Db } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { listResumableRuns, listRunsNeedingHelp } from "@/lib/db/runs/runLease";
import { deleteAbandonedPlans } from "@/lib/db/work/runWrites";
import type { WorkerKind } from "@/lib/db/work/workers";
import { createEngineDeps, JudgeUnavailableError } from "../engineDeps";
import { helpRun } from "../helpRun";
import { runEvaluation, type EngineDeps } from "../runEvaluation";
import { workerPresence } from "./workerPresence";
import {
  discardAbandonedPairwisePlans,
  getPairwiseComparison,
  listStoppedPairwiseComparisons,
} from "@/lib/db/pairwise/pairwiseComparisons";
import { createPairwiseDeps } from "../pairwise/pairwiseDeps";
import { judgePairwise } from "../pairwise/judgePairwise";

export type WorkerLoopOptions = {
  db: Db;
  kind: WorkerKind;
  /** How often to look for work (ms). */
  pollMs: number;
  env?: Record<string, string | undefined>;
  log?: (message: string) => void;
  /** Errors a run stopped with (already recorded on the run); the web server logs them its way. */
  onRunError?: (runId: string, error: unknown) => void;
  /** The most a run or a pairwise comparison may cost (ASSAY_MAX_RUN_USD); a comparison fails once it is spent. */
  maxRunUsd?: number | null;
};

export type WorkerLoop = {
  /** Starts coordinating a run now (a user just started it), unless this process already works on it. */
  coordinate(runId: string): void;
  /** Starts judging a pairwise comparison now (a user just started or resumed it), unless this process already is. */
  judgeComparison(comparisonId: string): void;
  isActive(runId: string): boolean;
  /** Stops looking for work and waits for the runs under way here to stop (their claims go back to the pool). */
  stop(): Promise<void>;
};

/**
 * What makes a process a worker: every `pollMs` it looks for runs to
 * coordinate (new ones, and ones whose coordinator is gone) and runs under a
 * live coordinator that still have pending work to help with, and works on
 * each in the background. Runs this process cannot serve (their LLM endpoint
 * is not configured here) are left to workers that can.
 */
export function startWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const { db, kind } = options;
  const log = options.log ?? (() => {});
  const active = new Map<string, Promise<void>>();
  const unservable = new Set<string>();
  let stopping = false;

  const depsFor = (run: NonNullable<Awaited<ReturnType<typeof getRun>>>): EngineDeps => ({
    ...createEngineDeps(db, run, {
      env: options.env,
      workerKind: kind,
      // One line per resume, so a restart's effect on a run can be found in the log.
      onResumed: ({ pendingJudgments }) =>
        log(`resumed run ${run.id} after an interruption; ${pendingJudgments} judgments were pending`),
    }),
    stopRequested: () => stopping,
  });

  const work = (runId: string, role: "coordinate" | "help") => {
    if (stopping || active.has(runId) || unservable.has(runId)) return;
    const task = (async () => {
      const run = await getRun(db, runId);
      if (!run) return;
      const deps = depsFor(run);
      if (role === "coordinate") await runEvaluation(run, deps);
      else {
        const help = await helpRun(run, deps);
        if (help.written > 0) log(`helped run ${runId}: ${help.written} results`);
        // Its coordinator is gone: this worker takes over now, its judging since then counted as working time.
        // The run read again: it may have changed while this worker helped (paused, cancelled, edited).
        if (help.coordinatorGone && !stopping) {
          const current = await getRun(db, runId);
          if (current) await runEvaluation(current, depsFor(current), { helpingSince: help.helpingSince });
        }
      }
    })()
      .catch((error: unknown) => {
        if (error instanceof JudgeUnavailableError) {
          if (!unservable.has(runId))
            log(`run ${runId} waits for a model endpoint this worker does not have: ${error.message}`);
          unservable.add(runId);
        } else options.onRunError?.(runId, error);
      })
      .finally(() => active.delete(runId));
    active.set(runId, task);
  };

  // A pairwise comparison is judged by one process at a time (its owner); one whose owner went silent is resumed.
  const workPairwise = (comparisonId: string) => {
    const key = `pairwise:${comparisonId}`;
    if (stopping || active.has(key) || unservable.has(key)) return;
    const task = (async () => {
      const comparison = await getPairwiseComparison(db, comparisonId);
      if (!comparison || comparison.status !== "judging") return;
      const deps = await createPairwiseDeps(db, comparison, {
        workerKind: kind,
        env: options.env,
        maxUsd: options.maxRunUsd,
        stopRequested: () => stopping,
      });
      const outcome = await judgePairwise(db, comparisonId, deps);
      if (outcome !== "busy") log(`pairwise comparison ${comparisonId}: ${outcome}`);
    })()
      .catch((error: unknown) => {
        if (error instanceof JudgeUnavailableError) {
          if (!unservable.has(key))
            log(`pairwise comparison ${comparisonId} waits for a model endpoint this worker does not have`);
          unservable.add(key);
        } else options.onRunError?.(key, error);
      })
      .finally(() => active.delete(key));
    active.set(key, task);
  };

  let sweeping = false;
  const sweep = async () => {
    if (sweeping || stopping) return;
    sweeping = true;
    try {
      await workerPresence(db, kind);
      // A run whose planner died part-way was never runnable; it is removed once its planning lease lapses.
      await deleteAbandonedPlans(db);
      for (const runId of await listResumableRuns(db)) work(runId, "coordinate");
      for (const runId of await listRunsNeedingHelp(db, [...active.keys()])) work(runId, "help");
      await discardAbandonedPairwisePlans(db);
      for (const comparisonId of await listStoppedPairwiseComparisons(db)) workPairwise(comparisonId);
    } catch (error) {
      options.onRunError?.("(sweep)", error);
    } finally {
      sweeping = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), options.pollMs);
  timer.unref();

  return {
    coordinate: (runId) => work(runId, "coordinate"),
    judgeComparison: workPairwise,
    isActive: (runId) => active.has(runId),
    async stop() {
      stopping = true;
      clearInterval(timer);
      await Promise.allSettled([...active.values()]);
    },
  };
}

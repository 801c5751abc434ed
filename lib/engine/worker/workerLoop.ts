import type { Db } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { listResumableRuns, listRunsNeedingHelp } from "@/lib/db/runs/runLease";
import { deleteAbandonedPlans } from "@/lib/db/work/runWrites";
import type { WorkerKind } from "@/lib/db/work/workers";
import { createEngineDeps, JudgeUnavailableError } from "../engineDeps";
import { helpRun } from "../helpRun";
import { runEvaluation, type EngineDeps } from "../runEvaluation";
import { workerPresence } from "./workerPresence";

export type WorkerLoopOptions = {
  db: Db;
  kind: WorkerKind;
  /** How often to look for work (ms). */
  pollMs: number;
  env?: Record<string, string | undefined>;
  log?: (message: string) => void;
  /** Errors a run stopped with (already recorded on the run); the web server logs them its way. */
  onRunError?: (runId: string, error: unknown) => void;
};

export type WorkerLoop = {
  /** Starts coordinating a run now (a user just started it), unless this process already works on it. */
  coordinate(runId: string): void;
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
    isActive: (runId) => active.has(runId),
    async stop() {
      stopping = true;
      clearInterval(timer);
      await Promise.allSettled([...active.values()]);
    },
  };
}

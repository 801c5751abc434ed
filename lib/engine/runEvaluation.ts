import { randomUUID } from "node:crypto";
import { getRunProgress, type ItemCounts, type RunRecord } from "@/lib/db/runs/runQueries";
import {
  addRunWorkingTime,
  failRun,
  finishRun,
  BUDGET_REACHED,
  getRunStatus,
  pauseRun,
  STORE_UNAVAILABLE,
} from "@/lib/db/runs/runLifecycle";
import { claimRun, releaseRunLease, renewRunLease } from "@/lib/db/runs/runLease";
import { describeBudgetPause, reachedLimit } from "@/lib/db/runs/runBudget";
import { countClaimedWork, releaseClaims } from "@/lib/db/work/claims";
import { readRunSpending } from "@/lib/db/work/runSpending";
import { isStoreUnavailable } from "@/lib/db/store/storeRetry";
import { createRunGate } from "./runGate";
import { workerPresence } from "./worker/workerPresence";
import { workerTimeoutMs } from "./worker/workerSettings";
import { workRunPass } from "./workRun";

export type { EngineDeps, RunProgressEvent } from "./engineDepsType";
import type { EngineDeps, RunProgressEvent } from "./engineDepsType";

export type RunOutcome = {
  runId: string;
  /** paused: the database stayed unavailable past the retry window; the run resumes by itself (the resumer, or the CLI's wait). */
  status: "completed" | "cancelled" | "failed" | "busy" | "paused";
  judgments: ItemCounts;
  /** Why a paused run paused: the store stayed unavailable, or the run reached its budget (the message says which limit). */
  pause?: { reason: "store_unavailable" | "budget"; message: string };
};

const STORE_PAUSE_MESSAGE =
  "Paused: the database stayed busy or full for too long. The run resumes by itself once it is writable again.";
/** Cancel and takeover are noticed within this; the lease is renewed as often. */
const STATUS_POLL_MS = 1_000;

/**
 * Coordinates a run: takes its lease (one coordinator per run; another
 * process takes over once the lease lapses), works on it as any worker does
 * (workRun.ts: claims, so other workers help at the same time), waits for
 * what other workers still hold, and then finishes, pauses or fails it.
 * Safe to call again after a crash: only pending items are done, and each is
 * written once. The caller reads the run (lib/db/runs/runQueries.ts getRun)
 * and builds its deps from the same record, so a run is read once per execution.
 */
export async function runEvaluation(
  run: RunRecord,
  deps: EngineDeps,
  options: {
    takeover?: boolean;
    /** This worker was helping the run since then (the store's time) when it found the coordinator gone (helpRun). */
    helpingSince?: Date | null;
  } = {},
): Promise<RunOutcome> {
  const { db } = deps;
  const runId = run.id;
  const worker = await workerPresence(db, deps.workerKind);
  const owner = worker.id;
  const LEASE_TTL_MS = deps.leaseTtlMs ?? workerTimeoutMs();
  const claimStartedAt = Date.now();
  const claim = await claimRun(db, runId, owner, LEASE_TTL_MS, options.takeover, options.helpingSince ?? null);
  // Working time is a span this process measures, so on its own clock; the claim's time is the store's. Taken
  // once the claim is stored, so the working time never exceeds the span from the run's start to its end.
  const claimedAt = Date.now();
  if (!claim.claimed) {
    const progress = await getRunProgress(db, runId);
    return {
      runId,
      status: run.status === "cancelled" || run.status === "completed" || run.status === "failed" ? run.status : "busy",
      judgments: progress.judgments,
    };
  }

  // The coordinator replaced is gone (its lease lapsed) or was told to step aside (--resume): what it held of this
  // run returns to the pool now rather than when its heartbeat lapses.
  if (claim.previousOwner) await releaseClaims(db, runId, claim.previousOwner);
  if (claim.resumed) deps.onResumed?.({ runId, pendingJudgments: claim.pendingJudgments });

  const counts = await getRunProgress(db, runId);
  let stopped = false;
  // Working time is added at each lease renewal, so a coordinator that dies loses at most one tick of it.
  // Counted from the claim (the run's start), and a tick counts only once its renewal is stored. A helper that
  // takes over had its helping counted up to the claim's first read of the store's clock: from just before the
  // claim then, or the claim's own queries (tens of ms on a busy store) would be counted by no one.
  let lastTick = options.helpingSince ? claimStartedAt : claimedAt;
  const gate = await createRunGate(db, runId, owner);
  // Renewals run one after another, so no two count the same span; the end awaits the last one.
  let beat: Promise<void> = Promise.resolve();
  // On a timer, not per finished item: a judge call may outlast the lease (60 s timeouts, retries),
  // and a lapsed lease would let another process take over a run that is alive.
  const heartbeat = setInterval(() => {
    beat = beat.then(async () => {
      const tick = Date.now();
      try {
        const [status, renewed, progress] = await Promise.all([
          getRunStatus(db, runId),
          renewRunLease(db, runId, owner, LEASE_TTL_MS, tick - lastTick),
          getRunProgress(db, runId),
          gate.refreshFromStore(),
        ]);
        if (renewed) lastTick = tick;
        if (status !== "running" || !renewed) stopped = true;
        // Other workers write results too: the progress this coordinator reports is the store's.
        Object.assign(counts.judgments, progress.judgments);
        Object.assign(counts.generations, progress.generations);
      } catch {
        // a failed renewal is retried on the next tick
      }
    });
  }, STATUS_POLL_MS);
  /** Stops the heartbeat and returns the working time not yet stored. */
  const settleWorkedMs = async () => {
    clearInterval(heartbeat);
    await beat;
    const now = Date.now();
    const worked = now - lastTick;
    lastTick = now;
    return worked;
  };
  const shouldStop = () => stopped || deps.stopRequested?.() === true;
  const report = (phase: RunProgressEvent["phase"]) =>
    deps.onProgress?.({ runId, phase, judgments: { ...counts.judgments }, generations: { ...counts.generations } });
  const endActivity = worker.beginActivity(runId, () => deps.limiter?.inFlight ?? 0);

  try {
    for (;;) {
      const pass = await workRunPass(run, deps, {
        workerId: owner,
        gate,
        shouldStop,
        events: {
          onGenerated: () => {
            counts.generations.pending -= 1;
            counts.generations.done += 1;
            worker.countCompleted();
            report("generating");
          },
          onJudged: (outcome) => {
            counts.judgments.pending -= 1;
            counts.judgments[outcome] += 1;
            worker.countCompleted();
            report("judging");
          },
        },
      });
      if (shouldStop() || gate.reached !== null) break;
      const held = await countClaimedWork(db, runId);
      const progress = await getRunProgress(db, runId);
      const outstanding = progress.judgments.pending + progress.generations.pending;
      if (outstanding === 0 && held.judgments === 0 && held.generations === 0) break;
      // Other workers hold the rest (or a gone worker's claims are on their way back): wait, then claim what returns.
      if (pass.generationsOutstanding || held.judgments + held.generations > 0 || outstanding > 0)
        await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    }

    // What other workers still hold is waited for (a dead one's comes back to pending within the timeout):
    // a run paused or finished under them would count their results nowhere, or leave them pending in a
    // completed run.
    for (const deadline = Date.now() + LEASE_TTL_MS + 10_000; !shouldStop() && Date.now() < deadline;) {
      const held = await countClaimedWork(db, runId);
      if (held.judgments + held.generations === 0) break;
      await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    }
    const final = await getRunProgress(db, runId);
    const unfinished = final.judgments.pending + final.judgments.running;
    const status = await getRunStatus(db, runId);
    if (status === "cancelled") {
      await addRunWorkingTime(db, runId, await settleWorkedMs());
      return { runId, status: "cancelled", judgments: final.judgments };
    }
    // A budget reached as the last LLM judgments finished leaves nothing to resume: the run completes.
    const reached = gate.reached ?? reachedLimit(gate.budget, await readRunSpending(db, runId), 0, 0);
    if (reached !== null && status === "running" && unfinished > 0) {
      const message = describeBudgetPause(reached, gate.budget, gate.spent);
      await pauseRun(db, runId, owner, BUDGET_REACHED, message, await settleWorkedMs());
      return { runId, status: "paused", judgments: final.judgments, pause: { reason: "budget", message } };
    }
    const generationsUnfinished = final.generations.pending + final.generations.running;
    const workedMs = await settleWorkedMs();
    // finishRun completes the run only if nothing is pending or held by then; otherwise it stays running for
    // whoever holds the rest, and its lease is let go so another worker coordinates it.
    if (shouldStop() || unfinished > 0 || generationsUnfinished > 0 || !(await finishRun(db, runId, owner, workedMs))) {
      await releaseRunLease(db, runId, owner, workedMs);
      return { runId, status: "busy", judgments: final.judgments };
    }
    return { runId, status: "completed", judgments: final.judgments };
  } catch (error) {
    stopped = true;
    if (isStoreUnavailable(error)) {
      // Not the run's fault: it pauses with its pending work intact. If even the pause cannot be
      // written, the lease lapses and the run, still "running", is resumed like a crashed one.
      const workedMs = await settleWorkedMs();
      await pauseRun(db, runId, owner, STORE_UNAVAILABLE, STORE_PAUSE_MESSAGE, workedMs).catch(() => false);
      return {
        runId,
        status: "paused",
        judgments: counts.judgments,
        pause: { reason: "store_unavailable", message: STORE_PAUSE_MESSAGE },
      };
    }
    // The user sees a reference, the log has the detail (database errors are not for the UI).
    const ref = randomUUID().slice(0, 8);
    await failRun(
      db,
      runId,
      owner,
      `The run stopped because of an internal error (ref ${ref}).`,
      await settleWorkedMs(),
    );
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { ref });
  } finally {
    clearInterval(heartbeat);
    endActivity();
  }
}

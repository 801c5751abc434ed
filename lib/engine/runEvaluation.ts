import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { getRunProgress, type ItemCounts, type JudgeRowData, type RunRecord } from "@/lib/db/runs/runQueries";
import {
  addRunWorkingTime,
  claimRun,
  failRun,
  finishRun,
  BUDGET_REACHED,
  getRunStatus,
  pauseRun,
  releaseRunLease,
  renewRunLease,
  STORE_UNAVAILABLE,
} from "@/lib/db/runs/runLifecycle";
import { describeBudgetPause, getRunBudget, getRunSpending } from "@/lib/db/runs/runBudget";
import { saveJudgment } from "@/lib/db/work/runWrites";
import { isStoreUnavailable, retryWhileBusy } from "@/lib/db/store/storeRetry";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { CustomJudgeDefinition } from "@/lib/judges/types";
import type { Limiter } from "@/lib/llm/concurrencyLimiter";
import type { LlmClient, TokenUsage } from "@/lib/llm/types";
import { createBudgetGate } from "./budgetGate";
import { generateResponses } from "./generateResponses";
import { contextRelevanceSettings } from "@/lib/metrics/contextRelevanceScore";
import { judgeCallShape } from "@/lib/metrics/spendingEstimate";
import { judgeItem, type ItemContext } from "./judgeItem";
import { forEachConcurrently, pendingJudgments } from "./pendingWork";
import { customMetricName } from "./runConfig";

/** What the engine needs from outside; the app, the CLI and tests each build their own. */
export type EngineDeps = {
  db: Db;
  /** Judges for LLM-judged metrics (a model, or the offline heuristics). */
  judge: JudgeBackend;
  /** The chat client for runs that generate responses. */
  llm?: LlmClient | null;
  costOf?: (model: string, usage: TokenUsage | null) => number | null;
  onProgress?: (progress: RunProgressEvent) => void;
  /** A stable id for this process, for the run lease. */
  workerId?: string;
  /** The run's limit on LLM calls in flight, when there is one (exposed so tests and benchmarks can read its high-water mark). */
  limiter?: Limiter | null;
  /** Lease length; renewed every second while the runner lives. Tests shorten it. */
  leaseTtlMs?: number;
  /** Told when this runner picks up a run that was interrupted (the event itself is already stored). */
  onResumed?: (resume: { runId: string; pendingJudgments: number }) => void;
};

export type RunProgressEvent = {
  runId: string;
  phase: "generating" | "judging";
  judgments: ItemCounts;
  generations: ItemCounts;
};
export type RunOutcome = {
  runId: string;
  /** paused: the database stayed unavailable past the retry window; the run resumes by itself (the resumer, or the CLI's wait). */
  status: "completed" | "cancelled" | "failed" | "busy" | "paused";
  judgments: ItemCounts;
  /** Why a paused run paused: the store stayed unavailable, or the run reached its budget (the message says which limit). */
  pause?: { reason: "store_unavailable" | "budget"; message: string };
};

const DEFAULT_LEASE_TTL_MS = 30_000;
const STORE_PAUSE_MESSAGE =
  "Paused: the database stayed busy or full for too long. The run resumes by itself once it is writable again.";
/** Cancel and takeover are noticed within this; the lease is renewed as often. */
const STATUS_POLL_MS = 1_000;

/**
 * Executes a run's pending work: generation first when the run generates, then
 * every pending judgment, each written the moment it completes. Safe to call
 * again after a crash: only pending items are done, and each is written once.
 * The caller reads the run (lib/db/runs/runQueries.ts getRun) and builds its deps
 * from the same record, so a run is read once per execution.
 */
export async function runEvaluation(
  run: RunRecord,
  deps: EngineDeps,
  options: { takeover?: boolean } = {},
): Promise<RunOutcome> {
  const { db } = deps;
  const runId = run.id;
  const owner = deps.workerId ?? `worker-${randomUUID().slice(0, 8)}`;
  const LEASE_TTL_MS = deps.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const claim = await claimRun(db, runId, owner, LEASE_TTL_MS, options.takeover);
  if (!claim.claimed) {
    const progress = await getRunProgress(db, runId);
    return {
      runId,
      status: run.status === "cancelled" || run.status === "completed" || run.status === "failed" ? run.status : "busy",
      judgments: progress.judgments,
    };
  }

  if (claim.resumed) deps.onResumed?.({ runId, pendingJudgments: claim.pendingJudgments });

  const { config } = run;
  const counts = await getRunProgress(db, runId);
  let stopped = false;
  // Working time is added at each lease renewal, so a runner that dies loses at most one tick of it.
  // Counted from the claim (the run's start), and a tick counts only once its renewal is stored.
  let lastTick = claim.at.getTime();
  // Renewals run one after another, so no two count the same span; the end awaits the last one.
  let beat: Promise<void> = Promise.resolve();
  // On a timer, not per finished item: a judge call may outlast the lease (60 s timeouts, retries),
  // and a lapsed lease would let another process take over a run that is alive.
  const heartbeat = setInterval(() => {
    beat = beat.then(async () => {
      const tick = Date.now();
      try {
        const [status, renewed] = await Promise.all([
          getRunStatus(db, runId),
          renewRunLease(db, runId, owner, LEASE_TTL_MS, tick - lastTick),
        ]);
        if (renewed) lastTick = tick;
        if (status !== "running" || !renewed) stopped = true;
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
  const shouldStop = () => stopped;
  const report = (phase: RunProgressEvent["phase"]) =>
    deps.onProgress?.({ runId, phase, judgments: { ...counts.judgments }, generations: { ...counts.generations } });

  try {
    // The budget is checked before every LLM call the run starts, generation included (lib/engine/budgetGate.ts).
    const gate = createBudgetGate(await getRunBudget(db, runId), await getRunSpending(db, runId));
    const costOf = deps.costOf ?? (() => null);
    const generationModel = run.generationModel;
    const generates = generationModel !== null;
    if (generationModel !== null && counts.generations.pending > 0) {
      if (!deps.llm)
        throw new Error(
          "this run generates responses, but no chat model is configured (set OPENAI_API_KEY or OPENAI_BASE_URL)",
        );
      await generateResponses(
        db,
        {
          id: runId,
          generationModel,
          generationSystemPrompt: run.generationSystemPrompt,
          temperature: config.generationTemperature ?? 0,
          concurrency: run.concurrency,
        },
        { llm: deps.llm, gate, costOf },
        shouldStop,
        () => {
          counts.generations.pending -= 1;
          counts.generations.done += 1;
          report("generating");
        },
      );
    }

    const context: ItemContext = {
      judge: deps.judge,
      customJudges: new Map(
        run.customJudges.map((j) => {
          const definition: CustomJudgeDefinition = {
            assessmentName: j.assessmentName,
            assessmentType: j.assessmentType as "ANSWER" | "RETRIEVAL",
            instructions: j.instructions,
          };
          return [customMetricName(definition), definition];
        }),
      ),
      chunkMode: config.chunkMode,
      thresholds: config.thresholds,
      contextRelevance: contextRelevanceSettings(config.contextRelevance),
      generates,
      costOf,
    };
    // Each judgment that calls a model reserves the calls it would make (two for summarization, one per chunk for
    // a per-chunk judge in per_chunk mode, one for the others) before it starts. Judging waits for every row's
    // response, so a budget that stopped generation stops the run here.
    // Twice the limit in lanes: while one lane writes its result, another's call is already waiting for the freed slot.
    const lanes = deps.judge.provider === "heuristic" ? 1 : run.concurrency * 2;
    if (gate.reached === null)
      await forEachConcurrently(
        pendingJudgments(db, runId),
        lanes,
        async ({ item, row }) => {
          const calls = deps.judge.provider === "heuristic" ? 0 : callsOf(item.metric, row, config.chunkMode);
          // Past the budget, only work that calls no model goes on (document recall, statistical scorers,
          // trace metrics): the run pauses with its LLM judgments pending and everything else computed.
          const reservation = calls > 0 ? gate.reserve(calls) : null;
          if (calls > 0 && reservation === null) return; // the item stays pending for the resume
          const result = await judgeItem(item.metric, row, context, reservation?.extend).finally(() =>
            reservation?.release(),
          );
          gate.book({
            calls: result.attempts,
            tokens: (result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0),
            usd: result.costUsd ?? 0,
          });
          // A busy database delays the write (asynchronously, the event loop stays free); it never loses the result.
          if (await retryWhileBusy(() => saveJudgment(db, { ...item, runId }, result))) {
            counts.judgments.pending -= 1;
            counts.judgments[result.errorMessage ? "error" : "done"] += 1;
          }
          report("judging");
        },
        shouldStop,
      );

    const final = await getRunProgress(db, runId);
    const status = await getRunStatus(db, runId);
    if (status === "cancelled") {
      await addRunWorkingTime(db, runId, await settleWorkedMs());
      return { runId, status: "cancelled", judgments: final.judgments };
    }
    // A budget reached as the last LLM judgments finished leaves nothing to resume: the run completes.
    if (gate.reached !== null && status === "running" && final.judgments.pending > 0) {
      const message = describeBudgetPause(gate.reached, gate.budget, gate.spent);
      await pauseRun(db, runId, owner, BUDGET_REACHED, message, await settleWorkedMs());
      return { runId, status: "paused", judgments: final.judgments, pause: { reason: "budget", message } };
    }
    if (stopped || final.judgments.pending > 0 || final.generations.pending > 0) {
      await releaseRunLease(db, runId, owner, await settleWorkedMs());
      return { runId, status: "busy", judgments: final.judgments };
    }
    await finishRun(db, runId, owner, await settleWorkedMs());
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
  }
}

/** The LLM calls one judgment makes: per chunk for a per-chunk judge in per_chunk mode, else its calls per row. */
function callsOf(metric: string, row: JudgeRowData, chunkMode: string): number {
  const shape = judgeCallShape(metric);
  if (shape === null) return 0;
  if (!shape.perChunk || chunkMode !== "per_chunk") return shape.callsPerRow;
  return Math.max(1, row.chunks.filter((chunk) => chunk.kind === "retrieved").length);
}

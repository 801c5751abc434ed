import { hasOutstandingGenerations } from "@/lib/db/runs/generationQueries";
import { toolCallSettings } from "@/lib/contract/toolCallSettings";
import type { JudgeRowData, RunRecord } from "@/lib/db/runs/runQueries";
import { releaseClaims } from "@/lib/db/work/claims";
import { decodeCustomJudge } from "@/lib/db/runs/storedRun";
import { isStoreUnavailable } from "@/lib/db/store/storeRetry";
import { saveJudgments, type JudgmentToSave } from "@/lib/db/work/judgmentResults";
import { contextRelevanceSettings } from "@/lib/contract/contextRelevanceSettings";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { judgeCallShape } from "@/lib/metrics/spendingEstimate";
import { gEvalStepWriters, gEvalTraceReaders } from "@/lib/contract/gEvalMetric";
import type { BudgetGate } from "./budgetGate";
import { generateResponses } from "./generateResponses";
import { gatheredLanes, groupedWrites } from "./groupedWrites";
import { judgeItem, type ItemContext } from "./judgeItem";
import { claimBatchSize, claimedJudgments, forEachConcurrently } from "./pendingWork";
import { customMetricName } from "@/lib/contract/judgeDefinitions";
import type { EngineDeps } from "./engineDepsType";

export type WorkEvents = {
  onGenerated(): void;
  onJudged(outcome: "done" | "error"): void;
};

/**
 * One pass over what this worker can claim of a run: its pending
 * generations, then (once every row has its response, whoever generated it)
 * its pending judgments, each written the moment it completes under this
 * worker's claim. Both a run's coordinator and the workers helping it run
 * passes; what a pass claimed and did not finish (a stop, a budget reached)
 * goes back to the pool as the pass ends.
 */
export async function workRunPass(
  run: RunRecord,
  deps: EngineDeps,
  work: { workerId: string; gate: BudgetGate; shouldStop: () => boolean; events: WorkEvents },
): Promise<{ generationsOutstanding: boolean }> {
  const { db } = deps;
  const { workerId, gate, shouldStop, events } = work;
  const costOf = deps.costOf ?? (() => null);
  try {
    const generationModel = run.generationModel;
    if (generationModel !== null && (await hasOutstandingGenerations(db, run.id))) {
      if (!deps.llm)
        throw new Error(
          "this run generates responses, but no chat model is configured (set OPENAI_API_KEY or OPENAI_BASE_URL)",
        );
      await generateResponses(
        db,
        {
          id: run.id,
          generationModel,
          generationSystemPrompt: run.generationSystemPrompt,
          temperature: run.config.generationTemperature ?? 0,
          concurrency: run.concurrency,
        },
        { llm: deps.llm, gate, costOf, workerId },
        shouldStop,
        events.onGenerated,
      );
      // Judging waits for every row's response: another worker may still be generating some.
      if (await hasOutstandingGenerations(db, run.id)) return { generationsOutstanding: true };
    }
    if (gate.reached === null && !shouldStop()) await judgePending(run, deps, work, costOf);
    return { generationsOutstanding: false };
  } finally {
    await releaseClaims(db, run.id, workerId);
  }
}

async function judgePending(
  run: RunRecord,
  deps: EngineDeps,
  work: { workerId: string; gate: BudgetGate; shouldStop: () => boolean; events: WorkEvents },
  costOf: NonNullable<EngineDeps["costOf"]>,
): Promise<void> {
  const { db } = deps;
  const { config } = run;
  const { workerId, gate } = work;
  const context: ItemContext = {
    judge: deps.judge,
    customJudges: new Map(
      run.customJudges.map((j) => {
        const definition = decodeCustomJudge(j);
        return [customMetricName(definition), definition];
      }),
    ),
    chunkMode: config.chunkMode,
    thresholds: config.thresholds,
    contextRelevance: contextRelevanceSettings(config.contextRelevance),
    statistical: config.statistical ?? {},
    deepEval: deepEvalSettings(config.deepEval),
    toolCalls: toolCallSettings(config.toolCalls),
    ...(config.conversation ? { conversation: config.conversation } : {}),
    generates: run.generationModel !== null,
    costOf,
  };
  // Each judgment that calls a model reserves the calls it would make (two for summarization, one per chunk for
  // a per-chunk judge in per_chunk mode, a G-Eval row's steps under DeepEval-exact, one for the others) before it starts.
  // Twice the limit in lanes: while one lane writes its result, another's call is already waiting for the freed slot.
  // The offline judge computes in this process, one judgment at a time whatever the lanes, but its results are
  // written in batches as large as the lanes (groupedWrites): 64 lanes took the CLI from 37 s to 21 s on 3,000
  // rows × the default judges, against one lane and one transaction a judgment.
  const lanes = deps.judge.provider === "heuristic" ? OFFLINE_LANES : run.concurrency * 2;
  // DeepEval-exact writes a G-Eval judge's steps for every row, as DeepEval's evaluate() does: a second call.
  const stepsPerRow = context.deepEval?.exact ? gEvalStepWriters(config.gEvalJudges ?? []) : new Set<string>();
  const results = groupedWrites((batch: JudgmentToSave[]) => saveJudgments(db, run.id, workerId, batch), {
    maxBatch: RESULTS_PER_WRITE,
    failsEveryEntry: isStoreUnavailable,
    ...(deps.judge.provider === "heuristic"
      ? { gatherMs: OFFLINE_GATHER_MS }
      : { gatherMs: RESULTS_GATHER_MS, flushAt: gatheredLanes(run.concurrency) }),
  });
  await forEachConcurrently(
    claimedJudgments(db, run.id, workerId, claimBatchSize(lanes), gEvalTraceReaders(config.gEvalJudges ?? [])),
    lanes,
    async ({ item, row }) => {
      const calls =
        deps.judge.provider === "heuristic"
          ? 0
          : callsOf(item.metric, row, config.chunkMode, context.deepEval) + (stepsPerRow.has(item.metric) ? 1 : 0);
      // Past the budget, only work that calls no model goes on (document recall, statistical scorers,
      // trace metrics): the run pauses with its LLM judgments pending and everything else computed.
      const reservation = calls > 0 ? await gate.reserve(calls) : null;
      if (calls > 0 && reservation === null) return; // released to pending as the pass ends
      let written = false;
      try {
        const result = await judgeItem(item.metric, row, context, reservation?.extend, item.trial).finally(() =>
          reservation?.release(),
        );
        gate.book({
          calls: result.attempts,
          tokens: (result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0),
          usd: result.costUsd ?? 0,
        });
        // A busy database delays the write (asynchronously, the event loop stays free); it never loses the result.
        written = await results.save({ item, result, reservedCalls: reservation?.heldInStore ?? 0 });
        if (written) work.events.onJudged(result.errorMessage ? "error" : "done");
      } finally {
        // Not written (the claim was lost, or the judge or the write failed): the calls reserved for it are freed.
        if (!written) await reservation?.releaseStoreHold();
      }
    },
    work.shouldStop,
  );
}

/** The most results one transaction writes: a worker's lanes number at most 400. */
const RESULTS_PER_WRITE = 100;
/**
 * How long the first result of a quiet spell waits for others to share its transaction. A lane waits for its
 * write, but the run has twice its limit in lanes, so a freed slot has a call waiting for it meanwhile. On SQLite
 * a judgment written alone dirties about 25 pages (its row, five indexes that hold its status, the tallies) and 5
 * in a batch of 32; 40 ms instead of 10 took the CLI at 64 in flight from about 2.2 to 1.7 ms of CPU a call
 * (bench:engine).
 */
const RESULTS_GATHER_MS = 40;
/** The offline judge computes one judgment at a time in this process: its lanes' results come in one burst. */
const OFFLINE_GATHER_MS = 10;
const OFFLINE_LANES = 64;

/**
 * The LLM calls one judgment makes (at most): per chunk for a per-chunk judge in per_chunk mode, else its
 * calls per row, plus one per chunk for a metric that judges each chunk in its own call (DeepEval's
 * contextual relevancy with DeepEval's call structure).
 */
function callsOf(metric: string, row: JudgeRowData, chunkMode: string, deepEval: ItemContext["deepEval"]): number {
  const shape = judgeCallShape(metric, deepEval);
  if (shape === null) return 0;
  const chunks = row.chunks.filter((chunk) => chunk.kind === "retrieved").length;
  if (shape.perChunk && chunkMode === "per_chunk") return Math.max(1, chunks);
  // A conversation's exchanges: its user turns.
  const exchanges = (row.conversation ?? []).filter((turn) => turn.role === "user").length;
  return Math.max(1, shape.callsPerRow + shape.callsPerChunk * chunks + (shape.callsPerExchange ?? 0) * exchanges);
}

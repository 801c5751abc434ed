import { measureHeldOut, type AlignmentUnit } from "@/lib/alignment/alignJudge";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import { rowKeyOf } from "@/lib/alignment/alignmentEstimate";
import {
  recordAlignmentComparison,
  recordAlignmentFailure,
  recordAlignmentProgress,
  type AlignmentSpending,
  type StoredAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { Alignment } from "@/lib/contract/alignment";
import type { JudgeResult, TokenUsage } from "@/lib/contract/judgeResult";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { loadAlignmentUnits } from "./alignmentUnits";
import { AlignmentRefused, originalJudgeOf, type AlignableRun } from "./originalJudge";

const HEARTBEAT_MS = 5_000;

export type MeasureDeps = {
  /** The base run's judge backend: the same model and endpoint the original's verdicts came from. */
  judge: JudgeBackend;
  /** What tokens cost (the endpoint's prices); absent, spending is counted in calls and tokens only. */
  costOf?: (model: string, usage: TokenUsage | null) => number | null;
  /** How often progress is written; every unit in tests. */
  progressEveryMs?: number;
  /**
   * The most measuring may cost (the server's ASSAY_MAX_RUN_USD, as for a run): once spent, the units not yet
   * judged are not, and the measurement fails saying so. Checked before each call, so calls in flight may pass it
   * by their own cost.
   */
  maxUsd?: number | null;
};

/**
 * The second half of an alignment: its aligned version judges the held-out units (and only those: the
 * examples came from the training part), beside the base run's verdicts, and the comparison is stored.
 * Progress, spending and a heartbeat are written as it goes, so a page shows a progress bar and can tell
 * a stopped measurement from a slow one. Measuring again after a stop redoes no finished call: the judge
 * cache answers them. Never throws for a judge's failure: the alignment is then failed, with the reason.
 */
export async function measureAlignment(
  db: Db,
  stored: StoredAlignment,
  run: AlignableRun,
  deps: MeasureDeps,
): Promise<StoredAlignment> {
  const spent: AlignmentSpending = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
  try {
    const original = originalJudgeOf(run, stored.metric);
    const units = await loadAlignmentUnits(db, run, stored.metric, new Set(stored.heldOutKeys));
    if (units.length === 0) throw new AlignmentRefused("none of the held-out rows has its label any more");
    const alignment = stored.definition.judge.alignment;
    if (!alignment) throw new AlignmentRefused("the stored aligned judge has no alignment");
    const passMark =
      original.kind === "g_eval" ? (run.config.thresholds[stored.metric] ?? original.judge.threshold) : null;
    let done = 0;
    const errors: string[] = [];
    let stoppedByBudget = 0;
    // A per-chunk judge judges a row's chunks together: the held-out chunks of one row share one judgment.
    const rowJudgments = new Map<string, Promise<JudgeResult>>();
    const judgeRow = (unit: AlignmentUnit, taught: Alignment) => {
      const rowKey = rowKeyOf(unit.key);
      let judged = rowJudgments.get(rowKey);
      if (!judged) {
        judged = deps.judge
          .judge({
            metric: original.kind === "built-in" ? original.metric : stored.metric,
            input: unit.input,
            ...(original.kind === "custom" ? { custom: original.judge } : {}),
            chunkMode: run.config.chunkMode,
            alignment: taught,
            settings: { deepEval: deepEvalSettings(run.config.deepEval) },
          })
          .then((result) => {
            count(result);
            return result;
          });
        rowJudgments.set(rowKey, judged);
      }
      return judged;
    };
    const judgeAligned = async (unit: AlignmentUnit, taught: Alignment) => {
      if (deps.maxUsd != null && spent.costUsd !== null && spent.costUsd >= deps.maxUsd) {
        stoppedByBudget += 1;
        return null;
      }
      const result = await judgeRow(unit, taught);
      const verdict = verdictOf(result, unit.chunkPosition, passMark);
      if (verdict === null) errors.push(errorOf(result, unit.chunkPosition));
      return verdict;
    };
    const count = (result: JudgeResult) => {
      if (!result.cacheHit) spent.llmCalls += result.attempts;
      spent.inputTokens += result.usage?.inputTokens ?? 0;
      spent.outputTokens += result.usage?.outputTokens ?? 0;
      spent.costUsd =
        deps.costOf?.(deps.judge.model, { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens }) ?? null;
    };
    // Progress at most every second (every unit in tests), and a heartbeat while one slow call holds it back.
    let lastWrite = Date.now();
    let writing: Promise<void> = Promise.resolve();
    const write = () => {
      lastWrite = Date.now();
      const progress = { done, spent: { ...spent } };
      writing = writing.then(() => recordAlignmentProgress(db, stored.id, progress));
    };
    const heartbeat = setInterval(write, HEARTBEAT_MS);
    let comparison: HeldOutComparison;
    try {
      comparison = await measureHeldOut(
        units,
        alignment,
        { judgeAligned },
        {
          concurrency: run.concurrency,
          onJudged: () => {
            done += 1;
            if (Date.now() - lastWrite >= (deps.progressEveryMs ?? 1000)) write();
          },
        },
      );
    } finally {
      clearInterval(heartbeat);
      await writing;
    }
    if (stoppedByBudget > 0)
      throw new AlignmentRefused(
        `measuring reached this server's limit of $${deps.maxUsd} per run (ASSAY_MAX_RUN_USD) with ${stoppedByBudget} of ${units.length} held-out units not judged; a shorter measurement would not be comparable`,
      );
    if (comparison.aligned.errors === units.length)
      throw new AlignmentRefused(
        `the aligned version could not judge any of the ${units.length} held-out units: ${errors[0] ?? "no answer"}`,
      );
    await recordAlignmentComparison(db, stored.id, comparison, { done: units.length, spent });
    return {
      ...stored,
      status: "measured",
      comparison,
      errorMessage: null,
      progress: { ...stored.progress, done: units.length },
      spent,
    };
  } catch (error) {
    // A refusal or a judge's failure is the user's to read; anything else (a bug, the store gone) is not shown raw.
    const message =
      error instanceof AlignmentRefused
        ? error.message
        : "measuring stopped on an unexpected error; see the server log";
    if (!(error instanceof AlignmentRefused)) console.error("alignment measurement failed", error);
    // What the failed attempts cost is kept: a measurement that failed still spent it.
    await recordAlignmentFailure(db, stored.id, message, spent);
    return { ...stored, status: "failed", errorMessage: message, spent };
  }
}

/** The aligned version's yes or no on one unit: a row's rating, a chunk's, or a G-Eval score at its pass mark. */
function verdictOf(result: JudgeResult, chunkPosition: number, passMark: number | null): "yes" | "no" | null {
  if (result.errorMessage !== null) return null;
  if (passMark !== null) return result.score === null ? null : result.score >= passMark ? "yes" : "no";
  if (chunkPosition < 0) return result.rating;
  const chunk = result.chunks?.find((c) => c.position === chunkPosition);
  return chunk && chunk.errorMessage === null ? chunk.rating : null;
}

function errorOf(result: JudgeResult, chunkPosition: number): string {
  const chunk = chunkPosition >= 0 ? result.chunks?.find((c) => c.position === chunkPosition) : undefined;
  return chunk?.errorMessage ?? result.errorMessage ?? "no verdict";
}

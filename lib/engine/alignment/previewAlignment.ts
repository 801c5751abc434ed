import { originalInstructions, type OriginalJudge } from "@/lib/alignment/alignedDefinition";
import { planAlignment, trainingDisagreements } from "@/lib/alignment/alignJudge";
import { estimateAlignment, type AlignmentEstimate } from "@/lib/alignment/alignmentEstimate";
import {
  heldOutKeysOfEarlierAlignments,
  listAlignments,
  type StoredAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import type { GuidanceContext } from "@/lib/judges/prompts/alignmentGuidance";
import type { LlmPrices } from "@/lib/llm/pricing";
import { labelCountProblem, loadAlignmentUnits } from "./alignmentUnits";
import { AlignmentRefused, originalJudgeOf, type AlignableRun } from "./originalJudge";

/**
 * What the Align page shows before anything is spent: the labels, how they will be split, the examples
 * the aligned version will show, what measuring it will cost, and the judge's earlier aligned versions.
 * The seed names the version about to be made, so the split shown is the split made.
 */
export type AlignmentPreview = {
  original: OriginalJudge | null;
  /** Why it cannot start (no LLM judge, too few labels), or null. */
  problem: string | null;
  seed: string;
  labels: { yes: number; no: number; disagreements: number };
  training: number;
  heldOut: number;
  /** Labels an earlier alignment held out: never examples here either. */
  keptHeldOut: number;
  examples: number;
  estimate: AlignmentEstimate;
  /** What a guidance draft reads: the judge's instructions and the training disagreements. */
  guidanceContext: GuidanceContext | null;
  earlier: StoredAlignment[];
};

const NOTHING: AlignmentEstimate = { llmCalls: 0, inputTokens: 0, outputTokens: 0, usd: null };

export async function previewAlignment(
  db: Db,
  run: AlignableRun,
  metric: string,
  prices: LlmPrices,
): Promise<AlignmentPreview> {
  const earlier = await listAlignments(db, run.datasetId, metric);
  const seed = `v${(earlier[0]?.version ?? 0) + 1}`;
  const empty = { seed, training: 0, heldOut: 0, keptHeldOut: 0, examples: 0, estimate: NOTHING, earlier };
  let original: OriginalJudge;
  try {
    original = originalJudgeOf(run, metric);
  } catch (error) {
    if (!(error instanceof AlignmentRefused)) throw error;
    return {
      ...empty,
      original: null,
      problem: error.message,
      labels: { yes: 0, no: 0, disagreements: 0 },
      guidanceContext: null,
    };
  }
  const units = await loadAlignmentUnits(db, run, metric);
  const labels = {
    yes: units.filter((u) => u.label === "yes").length,
    no: units.filter((u) => u.label === "no").length,
    disagreements: units.filter((u) => u.verdict !== null && u.verdict !== u.label).length,
  };
  const problem = labelCountProblem(units);
  if (problem) return { ...empty, original, problem, labels, guidanceContext: null };
  const earlierHeldOut = await heldOutKeysOfEarlierAlignments(db, run.datasetId, metric);
  const plan = planAlignment(units, { seed, earlierHeldOut });
  const disagreements = trainingDisagreements(units, { seed, earlierHeldOut }).map((candidate) => ({
    key: candidate.key,
    label: candidate.label,
    text: candidate.text,
    reason: candidate.reason,
    verdict: candidate.verdict ?? "yes",
  }));
  const guidanceContext: GuidanceContext = { instructions: originalInstructions(original), disagreements };
  return {
    original,
    problem:
      plan.heldOutKeys.length === 0 || plan.alignment.examples.length === 0
        ? "every label of this judge is held out by an earlier alignment: label more rows, then align again"
        : null,
    seed,
    labels,
    training: plan.trainingKeys.length,
    heldOut: plan.heldOutKeys.length,
    keptHeldOut: units.filter((u) => earlierHeldOut.has(u.key)).length,
    examples: plan.alignment.examples.length,
    estimate: estimateAlignment(plan, {
      model: run.judgeModel,
      prices,
      guidanceDraft: false,
      disagreementChars: disagreements.reduce((sum, d) => sum + d.text.length, 0),
    }),
    guidanceContext,
    earlier,
  };
}

/**
 * What measuring a stored aligned version again costs at most, counted as the preview counts the first
 * measurement's: one call per held-out row, its examples and guidance in every prompt. Calls that finished
 * before are answered by the judge cache and cost nothing, so a measurement again costs this or less.
 */
export async function estimateMeasurement(
  db: Db,
  stored: StoredAlignment,
  run: AlignableRun,
  prices: LlmPrices,
): Promise<AlignmentEstimate> {
  const alignment = stored.definition.judge.alignment;
  if (!alignment) return NOTHING;
  const heldOut = await loadAlignmentUnits(db, run, stored.metric, new Set(stored.heldOutKeys));
  return estimateAlignment({ heldOut, alignment }, { model: run.judgeModel, prices, guidanceDraft: false });
}

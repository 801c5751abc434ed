import { buildAlignedDefinition } from "@/lib/alignment/alignedDefinition";
import { planAlignment } from "@/lib/alignment/alignJudge";
import { DEFAULT_HELD_OUT_SHARE } from "@/lib/alignment/trainHeldOutSplit";
import {
  createAlignmentWithinLimit,
  heldOutKeysOfEarlierAlignments,
  type StoredAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import type { RunsInProgressLimit } from "@/lib/db/runs/runsInProgress";
import { RunsInProgressRefusal } from "../runsInProgressRefusal";
import { labelCountProblem, loadAlignmentUnits } from "./alignmentUnits";
import { AlignmentRefused, originalJudgeOf, type AlignableRun } from "./originalJudge";

export type AlignmentRequest = {
  metric: string;
  /** Seeds the split and the examples' order: the same seed and labels give the same alignment. */
  seed: string;
  /** The guidance the user accepted (their edit of a draft), or none. */
  guidance?: string | null;
  createdById?: string | null;
  /** The creator's ceiling on runs in progress, which a measurement counts in: stored only within it. */
  inProgressLimit?: RunsInProgressLimit;
};

/**
 * The first half of an alignment, quick and with no LLM call: the labels read, split (earlier held-out
 * rows kept out of training), the examples chosen, and the aligned version stored, to be measured on its
 * held-out units (measureAlignment). Throws AlignmentRefused with the reason when it cannot start, and
 * RunsInProgressRefusal when its creator is at their limit of runs in progress.
 */
export async function startAlignment(db: Db, run: AlignableRun, request: AlignmentRequest): Promise<StoredAlignment> {
  const original = originalJudgeOf(run, request.metric);
  const units = await loadAlignmentUnits(db, run, request.metric);
  const problem = labelCountProblem(units);
  if (problem) throw new AlignmentRefused(problem);
  const earlierHeldOut = await heldOutKeysOfEarlierAlignments(db, run.datasetId, request.metric);
  const plan = planAlignment(units, { seed: request.seed, earlierHeldOut, guidance: request.guidance ?? null });
  if (plan.heldOutKeys.length === 0 || plan.alignment.examples.length === 0)
    throw new AlignmentRefused(
      "every label of this judge is held out by an earlier alignment: label more rows, then align again",
    );
  const created = await createAlignmentWithinLimit(
    db,
    {
      datasetId: run.datasetId,
      metric: request.metric,
      seed: request.seed,
      heldOutShare: DEFAULT_HELD_OUT_SHARE,
      trainingKeys: plan.trainingKeys,
      heldOutKeys: plan.heldOutKeys,
      examples: [...plan.alignment.examples],
      guidance: plan.alignment.guidance,
      promptSuffix: plan.promptSuffix,
      baseRunId: run.id,
      judgeModel: run.judgeModel,
      createdById: request.createdById ?? null,
      defineJudge: (version) => buildAlignedDefinition(original, version, plan.alignment),
    },
    request.inProgressLimit ?? null,
  );
  if (!created.ok) throw new RunsInProgressRefusal(created.inProgress);
  return created.value;
}

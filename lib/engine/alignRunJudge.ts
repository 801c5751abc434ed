import { alignJudge, type AlignmentUnit } from "@/lib/alignment/alignJudge";
import { DEFAULT_HELD_OUT_SHARE } from "@/lib/alignment/trainHeldOutSplit";
import {
  createAlignment,
  heldOutKeysOfEarlierAlignments,
  recordAlignmentComparison,
  type StoredAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import { readLabelledVerdicts } from "@/lib/db/alignments/labelledVerdicts";
import type { RunRecord } from "@/lib/db/runs/runQueries";
import { decodeCustomJudge } from "@/lib/db/runs/storedRun";
import { loadRowsForWork, MAX_WORK_ROWS, type JudgeRowData } from "@/lib/db/work/workRows";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import { labelKindOf } from "@/lib/labels/labelKinds";
import { findMetric } from "@/lib/metrics/metricCatalog";
import type { Db } from "@/lib/db/client";
import { judgeInputFromRow } from "./judgeInputFromRow";
import { customMetricName } from "./runConfig";

/**
 * Aligns one of a run's yes/no judges (a built-in one, or a custom ANSWER or RETRIEVAL judge) with the
 * dataset's labels of it, and proves it on the held-out labels: the base run's verdicts are the
 * original's, the held-out rows are judged once more by the aligned version (through `judge`, the run's
 * judge backend), and the alignment is stored with its comparison. Score judges (G-Eval, DeepEval's)
 * are not aligned yet.
 */
export class AlignmentRefused extends Error {}

export async function alignRunJudge(
  db: Db,
  run: Pick<RunRecord, "id" | "datasetId" | "generationModel" | "customJudges" | "config">,
  judge: JudgeBackend,
  request: { metric: string; seed: string; guidance?: string | null; createdById?: string | null },
): Promise<StoredAlignment> {
  const custom = run.customJudges
    .map(decodeCustomJudge)
    .find((definition) => customMetricName(definition) === request.metric);
  // An aligned judge is aligned again from its original: examples on top of examples would teach nothing measurable.
  if (custom?.alignment)
    throw new AlignmentRefused(`${request.metric} is already an aligned version: align the original judge instead`);
  const known = findMetric(request.metric);
  const yesNo =
    custom !== undefined || (known !== undefined && labelKindOf(known) !== "score" && labelKindOf(known) !== null);
  if (!yesNo)
    throw new AlignmentRefused(`${request.metric} is not a yes/no judge of this run: only those can be aligned yet`);
  const labelled = await readLabelledVerdicts(db, run, request.metric);
  if (labelled.filter((l) => l.label === "yes").length < 2 || labelled.filter((l) => l.label === "no").length < 2)
    throw new AlignmentRefused("an alignment needs at least two labels of each answer, yes and no");
  const rowIds = [...new Set(labelled.map((l) => l.rowId))];
  const rows = new Map<string, JudgeRowData>();
  for (let start = 0; start < rowIds.length; start += MAX_WORK_ROWS)
    for (const [id, row] of await loadRowsForWork(db, run.id, rowIds.slice(start, start + MAX_WORK_ROWS)))
      rows.set(id, row);
  const generates = run.generationModel !== null;
  const units: AlignmentUnit[] = labelled.flatMap((l) => {
    const row = rows.get(l.rowId);
    return row
      ? [
          {
            key: l.key,
            label: l.label,
            verdict: l.verdict,
            chunkPosition: l.chunkPosition,
            reason: null,
            input: judgeInputFromRow(row, generates),
          },
        ]
      : [];
  });
  const earlierHeldOut = await heldOutKeysOfEarlierAlignments(db, run.datasetId, request.metric);
  const outcome = await alignJudge(
    units,
    {
      async judgeAligned(unit, alignment) {
        const result = await judge.judge({
          metric: request.metric,
          input: unit.input,
          custom,
          chunkMode: run.config.chunkMode,
          alignment,
        });
        if (result.errorMessage !== null) return null;
        if (unit.chunkPosition < 0) return result.rating;
        const chunk = result.chunks?.find((c) => c.position === unit.chunkPosition);
        return chunk && chunk.errorMessage === null ? chunk.rating : null;
      },
    },
    { seed: request.seed, earlierHeldOut, guidance: request.guidance ?? null },
  );
  const stored = await createAlignment(db, {
    datasetId: run.datasetId,
    metric: request.metric,
    seed: request.seed,
    heldOutShare: DEFAULT_HELD_OUT_SHARE,
    trainingKeys: outcome.trainingKeys,
    heldOutKeys: outcome.heldOutKeys,
    examples: [...outcome.alignment.examples],
    guidance: outcome.alignment.guidance,
    promptSuffix: outcome.promptSuffix,
    baseRunId: run.id,
    createdById: request.createdById ?? null,
  });
  await recordAlignmentComparison(db, stored.id, outcome.comparison);
  return { ...stored, status: "measured", comparison: outcome.comparison };
}

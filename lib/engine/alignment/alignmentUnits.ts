import type { AlignmentUnit } from "@/lib/alignment/alignJudge";
import { readLabelReasons, readLabelledVerdicts } from "@/lib/db/alignments/labelledVerdicts";
import type { Db } from "@/lib/db/client";
import { loadRowsForWork, MAX_WORK_ROWS, type JudgeRowData } from "@/lib/db/work/workRows";
import { judgeInputFromRow } from "../judgeInputFromRow";
import type { AlignableRun } from "./originalJudge";

/**
 * A judge's labelled units on a run: each label with the run's verdict beside it, the labeller's reason when
 * there is one, and what the judge reads for it, the rows loaded in bounded batches. `keys` narrows them to some units (a measurement reads
 * only its held-out ones).
 */
export async function loadAlignmentUnits(
  db: Db,
  run: Pick<AlignableRun, "id" | "datasetId" | "generationModel">,
  metric: string,
  keys?: ReadonlySet<string>,
): Promise<AlignmentUnit[]> {
  const labelled = (await readLabelledVerdicts(db, run, metric)).filter((l) => !keys || keys.has(l.key));
  const reasons = await readLabelReasons(db, run.datasetId, metric);
  const rowIds = [...new Set(labelled.map((l) => l.rowId))];
  const rows = new Map<string, JudgeRowData>();
  for (let start = 0; start < rowIds.length; start += MAX_WORK_ROWS)
    for (const [id, row] of await loadRowsForWork(db, run.id, rowIds.slice(start, start + MAX_WORK_ROWS)))
      rows.set(id, row);
  const generates = run.generationModel !== null;
  return labelled.flatMap((l) => {
    const row = rows.get(l.rowId);
    if (!row) return [];
    const input = judgeInputFromRow(row, generates);
    const reason = reasons.get(l.key) ?? null;
    return [{ key: l.key, label: l.label, verdict: l.verdict, chunkPosition: l.chunkPosition, reason, input }];
  });
}

/** At least two labels of each answer: fewer leave the split nothing to hold out, or nothing to learn from. */
export function labelCountProblem(units: readonly Pick<AlignmentUnit, "label">[]): string | null {
  const yes = units.filter((u) => u.label === "yes").length;
  const no = units.length - yes;
  return yes < 2 || no < 2
    ? `an alignment needs at least two labels of each answer, yes and no (this judge has ${yes} yes and ${no} no)`
    : null;
}

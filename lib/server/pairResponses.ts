import { responseHashOf } from "@/lib/contract/contentHash";
import type { Db } from "@/lib/db/client";
import { pairedCandidateRowId } from "@/lib/db/judgments/rowPairing";
import { getRun } from "@/lib/db/runs/runQueries";
import { loadRowsForWork } from "@/lib/db/work/workRows";
import { judgeInputFromRow } from "@/lib/engine/judgeInputFromRow";

/** The two responses a pair compares, with the hashes people's verdicts on them are stored under. */
export type PairResponses = {
  baselineRowId: string;
  candidateRowId: string;
  baseline: { response: string; hash: string; generates: boolean };
  candidate: { response: string; hash: string; generates: boolean };
};

/**
 * The responses of a baseline row and its partner in the candidate run, as a pairwise judge was shown them (each
 * run's generated response when it generates, else its dataset row's). Null when a run, the partner or either
 * response is missing: there is nothing to choose between.
 */
export async function readPairResponses(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  baselineRowId: string,
): Promise<PairResponses | null> {
  const candidateRowId = await pairedCandidateRowId(db, baselineRowId, candidateRunId);
  const [baseline, candidate] = await Promise.all([getRun(db, baselineRunId), getRun(db, candidateRunId)]);
  if (!candidateRowId || !baseline || !candidate) return null;
  const [a, b] = await Promise.all([
    loadRowsForWork(db, baselineRunId, [baselineRowId]),
    loadRowsForWork(db, candidateRunId, [candidateRowId]),
  ]);
  const rowA = a.get(baselineRowId);
  const rowB = b.get(candidateRowId);
  if (!rowA || !rowB) return null;
  const side = (row: typeof rowA, generates: boolean) => {
    const response = judgeInputFromRow(row, generates).response;
    const hash = responseHashOf(response);
    return response !== null && hash !== null ? { response, hash, generates } : null;
  };
  const sideA = side(rowA, baseline.generationModel !== null);
  const sideB = side(rowB, candidate.generationModel !== null);
  return sideA && sideB ? { baselineRowId, candidateRowId, baseline: sideA, candidate: sideB } : null;
}

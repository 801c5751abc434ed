import { readComparedAgreementCounts, toJudgeAgreement, type JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import type { Db } from "@/lib/db/client";
import { pairedAgreementTest, type PairedAgreementTest } from "@/lib/stats";

export type AgreementComparisonRow = {
  metric: string;
  a: JudgeAgreement;
  b: JudgeAgreement;
  /** McNemar on the labels both runs judged; null when no label was judged by both. */
  paired: PairedAgreementTest | null;
};

/**
 * The compare page's agreement table: the same figures per run side by side
 * for every labelled metric, and the paired test on the labelled rows both
 * runs judged (two prompt versions or two judge models against the same people).
 */
export async function compareRunAgreement(
  db: Db,
  runA: { id: string; datasetId: string },
  runB: { id: string; datasetId: string },
): Promise<AgreementComparisonRow[]> {
  if (runA.datasetId !== runB.datasetId) return [];
  const rows: AgreementComparisonRow[] = [];
  // A metric at a time: a score judge's pairs are read in pages, one run's at a time.
  for (const row of await readComparedAgreementCounts(db, runA, runB)) {
    const judgedByBoth =
      row.paired.bothAgree + row.paired.onlyAAgrees + row.paired.onlyBAgrees + row.paired.bothDisagree;
    rows.push({
      metric: row.metric,
      a: await toJudgeAgreement(db, runA, row.a),
      b: await toJudgeAgreement(db, runB, row.b),
      paired: judgedByBoth > 0 ? pairedAgreementTest(row.paired) : null,
    });
  }
  return rows;
}

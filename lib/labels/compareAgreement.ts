import { readComparedAgreementCounts, toJudgeAgreement, type JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import type { Db } from "@/lib/db/client";
import { pairedAgreementTest, type PairedAgreementTest } from "@/lib/stats";
import { cached, runAgreementStamp } from "./agreementCache";
import { readPeopleAgreement, type PeopleReport } from "./peopleAgreementReport";

export type AgreementComparisonRow = {
  metric: string;
  a: JudgeAgreement;
  b: JudgeAgreement;
  /** McNemar on the labels both runs judged; null when no label was judged by both. */
  paired: PairedAgreementTest | null;
  /** How far the people who labelled the metric agree (their α: both runs' ceiling); null with one labeller. */
  people: PeopleReport["agreement"] | null;
};

/**
 * The compare page's agreement table: the same figures per run side by side
 * for every labelled metric, and the paired test on the labelled rows both
 * runs judged (two prompt versions or two judge models against the same people), and, where several people
 * labelled, their own α: the ceiling both runs are held to.
 */
export async function compareRunAgreement(
  db: Db,
  runA: { id: string; datasetId: string; status?: string; finishedAt?: Date | null },
  runB: { id: string; datasetId: string; status?: string; finishedAt?: Date | null },
): Promise<AgreementComparisonRow[]> {
  if (runA.datasetId !== runB.datasetId) return [];
  // Kept until the labels or either run change (agreementCache.ts); a caller without the runs' status computes afresh.
  const stamps =
    runA.status && runB.status
      ? await Promise.all(
          [runA, runB].map((run) =>
            runAgreementStamp(db, { ...run, status: run.status ?? "", finishedAt: run.finishedAt ?? null }),
          ),
        )
      : [null];
  const stamp = stamps.every((s) => s !== null) ? stamps.join("/") : null;
  return cached(`compare:${runA.id}:${runB.id}`, stamp, () => compareAgreementRows(db, runA, runB));
}

async function compareAgreementRows(
  db: Db,
  runA: { id: string; datasetId: string },
  runB: { id: string; datasetId: string },
): Promise<AgreementComparisonRow[]> {
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
      people:
        (await readPeopleAgreement(db, { datasetId: runA.datasetId, metric: row.metric, kind: row.a.kind }))
          ?.agreement ?? null,
    });
  }
  return rows;
}

import type { Db } from "@/lib/db/client";
import type { JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import { readMultiLabellerMetrics } from "@/lib/db/labels/peopleLabelQueries";
import { readPeopleAgreement, type PeopleReport } from "./peopleAgreementReport";

/**
 * Agreement between the people who labelled each of a run's judged and labelled metrics, with the run's
 * judge held to it; only metrics more than one person labelled. One metric after another: each reads its label
 * patterns in one GROUP BY.
 */
export async function getRunPeopleAgreement(
  db: Db,
  run: { id: string; datasetId: string },
  judges: readonly Pick<JudgeAgreement, "metric" | "kind" | "labelled" | "errors">[],
  options: { epsilon?: number } = {},
): Promise<PeopleReport[]> {
  const reports: PeopleReport[] = [];
  // The metrics the run judged on labelled rows: those its agreement panel shows.
  for (const { metric, kind } of judges.filter((judge) => judge.labelled + judge.errors > 0)) {
    const report = await readPeopleAgreement(db, {
      datasetId: run.datasetId,
      metric,
      kind,
      runId: run.id,
      epsilon: options.epsilon,
    });
    if (report) reports.push(report);
  }
  return reports;
}

/** Agreement between people on every metric of a dataset more than one person labelled (no judge: no run). */
export async function getDatasetPeopleAgreement(db: Db, datasetId: string): Promise<PeopleReport[]> {
  const reports: PeopleReport[] = [];
  for (const { metric, kind } of await readMultiLabellerMetrics(db, datasetId)) {
    const report = await readPeopleAgreement(db, { datasetId, metric, kind });
    if (report) reports.push(report);
  }
  return reports;
}

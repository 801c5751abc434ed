import type { Db } from "@/lib/db/client";
import { readDatasetRunJudges, readOneRunJudges } from "@/lib/db/labels/labelQueries";
import { runJudgeLabelMetrics, type RunJudgeLabel } from "./labelKinds";

/**
 * The custom and G-Eval judges that take labels on a dataset: those any run
 * on it defines. Labels are keyed by the full metric name, so two runs that
 * define a judge of the same name share its labels (which is what lets two
 * versions of one judge's instructions be compared against the same people).
 */
export async function datasetJudgeLabels(db: Db, datasetId: string): Promise<RunJudgeLabel[]> {
  return runJudgeLabelMetrics(await readDatasetRunJudges(db, datasetId));
}

/** The custom and G-Eval judges of one run that take labels. */
export async function runJudgeLabels(db: Db, runId: string): Promise<RunJudgeLabel[]> {
  return runJudgeLabelMetrics(await readOneRunJudges(db, runId));
}

import { gEvalMetricName } from "./gEvalMetric";
import { customMetricName } from "./judgeDefinitions";
import { METRICS } from "./metricCatalog";

/**
 * A run's own judges as the labels see them (their definitions live in the run, not the catalogue): its
 * custom judges and its G-Eval judges (lib/labels/labelKinds.ts gives their label kinds).
 */
export type RunJudgeDefinitions = {
  customJudges: readonly { assessmentName: string; assessmentType: string }[];
  gEvalJudges?: readonly { name: string; threshold: number; evaluationParams?: readonly string[] }[];
};

/**
 * Whether a label on this metric judged the response, so records the
 * response's hash and counts only on runs that judged the same response. A
 * metric that never reads the response (retrieval judges read the request,
 * the retrieved context and the expected answer) judged the same content on
 * every run: its label stores no hash and counts everywhere. Decided here
 * alone, at every write (the drill-down, an upload's human_labels, a label
 * file) and by the data step for labels stored before:
 * - catalogue metrics: `requires` includes "response";
 * - a run's custom ANSWER judge: yes (a RETRIEVAL judge is per chunk);
 * - a G-Eval judge: its evaluationParams include actual_output;
 * - chunk labels never (the caller passes chunkPosition), unknown metrics no.
 */
export function labelReadsResponse(metric: string, chunkPosition: number, judges: RunJudgeDefinitions): boolean {
  if (chunkPosition >= 0) return false;
  const catalogued = METRICS.find((definition) => definition.name === metric);
  if (catalogued) return catalogued.requires.includes("response");
  const custom = judges.customJudges.find(
    (judge) =>
      customMetricName({
        assessmentName: judge.assessmentName,
        assessmentType: judge.assessmentType === "RETRIEVAL" ? "RETRIEVAL" : "ANSWER",
      }) === metric,
  );
  if (custom) return custom.assessmentType !== "RETRIEVAL";
  const gEval = (judges.gEvalJudges ?? []).find((judge) => gEvalMetricName(judge) === metric);
  if (gEval) return (gEval.evaluationParams ?? []).includes("actual_output");
  return false;
}

/** The whole-row metrics of a dataset whose labels carry a response hash (what a label file's SQL import binds). */
export function responseReadingMetrics(judges: RunJudgeDefinitions): string[] {
  const names = [
    ...METRICS.map((definition) => definition.name),
    ...judges.customJudges.map((judge) =>
      customMetricName({
        assessmentName: judge.assessmentName,
        assessmentType: judge.assessmentType === "RETRIEVAL" ? "RETRIEVAL" : "ANSWER",
      }),
    ),
    ...(judges.gEvalJudges ?? []).map((judge) => gEvalMetricName(judge)),
  ];
  return [...new Set(names)].filter((metric) => labelReadsResponse(metric, -1, judges));
}

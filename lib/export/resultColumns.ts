import type { RunResultRow } from "@/lib/db/judgments/resultQueries";
import { metricShape } from "@/lib/contract/aggregates";

/**
 * One flat record per dataset row, with Agent Evaluation's per-question field names:
 * response/llm_judged/{judge}/rating|rationale|error_message,
 * retrieval/llm_judged/{judge}/ratings|rationales|error_messages|precision,
 * retrieval/ground_truth/document_recall, agent/*; and for the score metrics of DeepEval and Mastra
 * (DeepEval's fields): {metric}/score|threshold|success|reason|error_message, plus
 * {metric}/details, the intermediate verdicts (claims, statements, nodes, opinions, context
 * pieces; JSON in CSV). After each metric's columns, {metric}/skip_reason: why the metric was not judged on
 * this row (Assay's own column, not Agent Evaluation's; empty when the row was judged), so a skip does not
 * read as a blank.
 *
 * A run with trials (each row judged N times) keeps those columns for trial 1, as the rows table shows it, and
 * adds each trial's verdict after them: {metric}/trials/{t}/rating|score|precision|value and
 * {metric}/trials/{t}/rationale (each trial's error message in its place when it errored), then
 * {metric}/trials/pass_rate, the share of the row's judged trials that passed, the number compare tests.
 * A run that generates has trials/{t}/response, each trial's own response.
 */
export type ResultRecord = Record<string, string | number | boolean | null | (string | null)[] | unknown>;

export function toResultRecord(row: RunResultRow, metrics: string[], trials = 1): ResultRecord {
  const generation = row.generations.find((g) => g.trial === 1) ?? row.generations[0];
  const record: ResultRecord = {
    request_id: row.requestId,
    request: safeParse(row.requestRaw),
    response: generation ? generation.response : row.response,
    expected_response: row.expectedResponse,
    expected_facts: row.expectedFacts ? safeParse(row.expectedFacts) : null,
    retrieved_context: row.chunks
      .filter((c) => c.kind === "retrieved")
      .map((c) => ({ content: c.content, doc_uri: c.docUri })),
    expected_retrieved_context: row.chunks
      .filter((c) => c.kind === "expected")
      .map((c) => ({ content: c.content, doc_uri: c.docUri })),
  };
  if (trials > 1 && row.generations.length > 0)
    for (let trial = 1; trial <= trials; trial++)
      record[`trials/${trial}/response`] = row.generations.find((g) => g.trial === trial)?.response ?? null;
  const byMetric = new Map(row.judgments.filter((j) => j.trial === 1).map((j) => [j.metric, j]));
  for (const metric of metrics) {
    const judgment = byMetric.get(metric);
    const error = judgment?.status === "error" ? judgment.errorMessage : null;
    const shape = metricShape(metric);
    if (shape === "score") {
      const done = judgment?.status === "done";
      record[`${metric}/score`] = done ? judgment.score : null;
      record[`${metric}/threshold`] = done ? judgment.threshold : null;
      record[`${metric}/success`] = done ? judgment.passed : null;
      record[`${metric}/reason`] = judgment?.rationale ?? null;
      record[`${metric}/error_message`] = error;
      record[`${metric}/details`] = judgment?.details ?? null;
    } else if (shape === "rating") {
      record[`${metric}/rating`] = judgment?.status === "done" ? judgment.rating : null;
      record[`${metric}/rationale`] = judgment?.rationale ?? null;
      record[`${metric}/error_message`] = error;
    } else if (shape === "precision") {
      const chunks = judgment?.chunks ?? [];
      record[`${metric}/ratings`] = chunks.map((c) => c.rating);
      record[`${metric}/rationales`] = chunks.map((c) => c.rationale);
      record[`${metric}/error_messages`] = chunks.map((c) => c.errorMessage ?? (error ? error : null));
      record[`${metric}/precision`] = judgment?.status === "done" ? judgment.score : null;
    } else {
      record[metric] = judgment?.status === "done" ? judgment.score : null;
      if (metric === "retrieval/ground_truth/document_recall") record[`${metric}/error_message`] = error;
    }
    record[`${metric}/skip_reason`] =
      judgment?.status === "skipped" ? (judgment.skipReason ?? "skipped (no reason recorded)") : null;
    if (trials > 1) addTrialColumns(record, metric, trials, row.judgments);
  }
  return record;
}

/** Each trial's verdict and rationale of one metric, then the row's pass rate over its judged trials. */
function addTrialColumns(record: ResultRecord, metric: string, trials: number, judgments: RunResultRow["judgments"]) {
  const shape = metricShape(metric);
  const field =
    shape === "rating" ? "rating" : shape === "precision" ? "precision" : shape === "score" ? "score" : "value";
  let judged = 0;
  let passed = 0;
  for (let trial = 1; trial <= trials; trial++) {
    const judgment = judgments.find((j) => j.metric === metric && j.trial === trial);
    const done = judgment?.status === "done";
    record[`${metric}/trials/${trial}/${field}`] = !done ? null : shape === "rating" ? judgment.rating : judgment.score;
    record[`${metric}/trials/${trial}/rationale`] =
      judgment?.status === "error" ? judgment.errorMessage : (judgment?.rationale ?? null);
    if (done && judgment.passed !== null) {
      judged++;
      if (judgment.passed) passed++;
    }
  }
  record[`${metric}/trials/pass_rate`] = judged === 0 ? null : passed / judged;
}

const NO_ROW: RunResultRow = {
  id: "",
  rowNumber: 0,
  requestId: "",
  requestRaw: "null",
  response: null,
  expectedResponse: null,
  expectedFacts: null,
  chunks: [],
  judgments: [],
  generations: [],
};

/** The columns toResultRecord writes for a run with these metrics, in its order (known before any row is read). */
export function resultColumnNames(metrics: string[], trials = 1, generates = false): string[] {
  const row: RunResultRow = generates
    ? {
        ...NO_ROW,
        generations: Array.from({ length: trials }, (_, i) => ({
          trial: i + 1,
          response: null,
          errorMessage: null,
          latencySeconds: null,
          inputTokenCount: null,
          outputTokenCount: null,
        })),
      }
    : NO_ROW;
  return Object.keys(toResultRecord(row, metrics, trials));
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

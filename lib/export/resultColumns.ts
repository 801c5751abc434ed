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
 */
export type ResultRecord = Record<string, string | number | boolean | null | (string | null)[] | unknown>;

export function toResultRecord(row: RunResultRow, metrics: string[]): ResultRecord {
  const generation = row.generations[0];
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
  const byMetric = new Map(row.judgments.map((j) => [j.metric, j]));
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
  }
  return record;
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
export function resultColumnNames(metrics: string[]): string[] {
  return Object.keys(toResultRecord(NO_ROW, metrics));
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

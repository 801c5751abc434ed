import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import { agentValueUnit, isAgentValueMetric } from "@/lib/contract/aggregates";
import type { Db } from "@/lib/db/client";
import { listFlips, type Flip } from "@/lib/db/judgments/compareQueries";
import type { Correction } from "@/lib/stats";
import { csvLine } from "./csv";

/**
 * What a comparison's export says about each metric, beside the rows: the same statistics the compare page
 * shows (computed by compareRuns, so from the same bootstrap cache; the export waits for every interval),
 * one record per (metric, candidate run).
 */
export type MetricStatistics = {
  metric: string;
  baseline_run_id: string;
  candidate_run_id: string;
  /**
   * What the values, delta and interval are measured in: "rate" (a yes-rate in [0, 1]), "score" (an average
   * score), "seconds" (agent latency; the page may word small deltas in ms, the export stays in seconds),
   * "tokens" (agent token counts), "calls" (the agent's tool calls).
   */
  unit: MetricUnit;
  /** The aggregate the page shows over every judged row: a yes-rate in [0, 1], or an average. */
  baseline_value: number | null;
  candidate_value: number | null;
  /**
   * Candidate minus baseline, on `delta_basis`: "paired_rows" (a tested delta: the paired difference over the
   * `paired_rows` rows both runs judged, the basis of its interval and test) or "overall" (untested: the
   * difference of the two values above).
   */
  delta: number | null;
  delta_basis: "paired_rows" | "overall";
  /** candidate_value − baseline_value, over every judged row; differs from a paired delta where rows are unpaired. */
  overall_delta: number | null;
  /**
   * The delta's (1 − alpha) interval, by the method of its p-value (it excludes 0 exactly when p_value < alpha):
   * for scores the paired bootstrap, or above 50,000 paired rows the normal approximation from the differences'
   * sums (`test` says which); for yes-rates the interval that inverts the exact McNemar test. Not widened for
   * the other metrics compared.
   */
  interval_low: number | null;
  interval_high: number | null;
  /** The paired test's own p: exact McNemar for yes/no metrics, the bootstrap's or the normal's for scores. */
  p_value: number | null;
  /** p_value adjusted for the candidate's other tested metrics by `correction`; the verdict is its. Null with none. */
  adjusted_p_value: number | null;
  /** How the candidate's metrics were read together: holm, bh or none. */
  correction: Correction;
  /** How many metrics were read together for this candidate (its tested metrics). */
  family_size: number;
  test: "exact_mcnemar" | "paired_bootstrap" | "paired_normal" | null;
  verdict: "better" | "worse" | "noise" | "n/a";
  words: string;
  paired_rows: number;
  /** Rows judged in one run only (not in the test). */
  unpaired_rows: number;
  /** Rows whose yes/no verdict or score success flipped, as the flip list counts them. */
  regressions: number | null;
  improvements: number | null;
  /** Set when the runs' judge, prompt version or pass mark differ for this metric. */
  judged_differently: string | null;
};

export type FlippedRow = {
  candidate_run_id: string;
  request_id: string;
  row_number: number;
  metric: string;
  /** "verdict": a yes/no rating changed; "success": a score crossed its pass mark. */
  kind: Flip["kind"];
  direction: "regression" | "improvement";
  baseline: string;
  candidate: string;
  baseline_score: number | null;
  candidate_score: number | null;
};

export type MetricUnit = "rate" | "score" | "seconds" | "tokens" | "calls";

export const STATISTICS_COLUMNS: (keyof MetricStatistics)[] = [
  "metric",
  "baseline_run_id",
  "candidate_run_id",
  "unit",
  "baseline_value",
  "candidate_value",
  "delta",
  "delta_basis",
  "overall_delta",
  "interval_low",
  "interval_high",
  "p_value",
  "adjusted_p_value",
  "correction",
  "family_size",
  "test",
  "verdict",
  "words",
  "paired_rows",
  "unpaired_rows",
  "regressions",
  "improvements",
  "judged_differently",
];

export const FLIPPED_ROW_COLUMNS: (keyof FlippedRow)[] = [
  "candidate_run_id",
  "request_id",
  "row_number",
  "metric",
  "kind",
  "direction",
  "baseline",
  "candidate",
  "baseline_score",
  "candidate_score",
];

/**
 * The comparison behind an export, every bootstrap interval waited for (at `alpha`, 0.05 unless asked, with
 * `correction`, Holm unless asked). Null when a run is missing.
 */
export function exportedComparison(
  db: Db,
  runIds: string[],
  baselineId: string,
  options: { alpha?: number; correction?: Correction } = {},
): Promise<Comparison | null> {
  return compareRuns(db, runIds, baselineId, { waitMs: Infinity, ...options });
}

/** One record per (metric, candidate), in the page's metric order. */
export function comparisonStatistics(comparison: Comparison): MetricStatistics[] {
  const baselineId = comparison.baselineId;
  return comparison.metrics.flatMap(({ metric, shape, cells, deltas }) =>
    Object.entries(deltas).map(([candidateId, delta]) => {
      const counts = comparison.paired?.[candidateId]?.find((c) => c.metric === metric);
      const tested = delta.verdict !== "n/a" && delta.verdict !== "pending";
      const baselineValue = cells[baselineId]?.aggregate?.value ?? null;
      const candidateValue = cells[candidateId]?.aggregate?.value ?? null;
      return {
        metric,
        baseline_run_id: baselineId,
        candidate_run_id: candidateId,
        unit: metricUnit(metric, shape),
        baseline_value: baselineValue,
        candidate_value: candidateValue,
        delta: delta.delta,
        delta_basis: tested ? "paired_rows" : "overall",
        overall_delta:
          delta.overallDelta ??
          (baselineValue === null || candidateValue === null ? null : candidateValue - baselineValue),
        interval_low: delta.interval?.low ?? null,
        interval_high: delta.interval?.high ?? null,
        p_value: delta.pValue ?? null,
        adjusted_p_value: delta.adjustedPValue ?? null,
        correction: comparison.correction.method,
        family_size: comparison.correction.family[candidateId] ?? 0,
        test: tested ? (shape === "rating" ? "exact_mcnemar" : (delta.method ?? "paired_bootstrap")) : null,
        // An export waits for every interval, so "pending" cannot reach it; n/a stands in should it ever.
        verdict: delta.verdict === "pending" ? "n/a" : delta.verdict,
        words: delta.words,
        paired_rows: delta.pairs,
        unpaired_rows: counts ? counts.onlyBaseline + counts.onlyCandidate : delta.unpaired,
        regressions: counts ? counts.yesNo + counts.passFail : null,
        improvements: counts ? counts.noYes + counts.failPass : null,
        judged_differently: delta.judgedDifferently ?? null,
      } satisfies MetricStatistics;
    }),
  );
}

/** What a metric's exported values are measured in (the page words latency in s or ms; the export keeps seconds). */
function metricUnit(metric: string, shape: Comparison["metrics"][number]["shape"]): MetricUnit {
  if (shape === "rating") return "rate";
  if (isAgentValueMetric(metric)) return agentValueUnit(metric);
  return "score";
}

/** One flip as the exports and the API write it. */
export function toFlippedRow(candidateId: string, flip: Flip): FlippedRow {
  return {
    candidate_run_id: candidateId,
    request_id: flip.requestId,
    row_number: flip.rowNumber,
    metric: flip.metric,
    kind: flip.kind,
    direction: flip.regression ? "regression" : "improvement",
    baseline: flip.baseline,
    candidate: flip.candidate,
    baseline_score: flip.baselineScore,
    candidate_score: flip.candidateScore,
  };
}

/** Flips read a page at a time: a comparison with many flips never holds a page of more than this. */
const FLIP_PAGE = 1000;

/** Every flipped row of every candidate on the baseline's dataset, in the flip list's order (regressions first). */
export async function* flippedRows(db: Db, comparison: Comparison): AsyncGenerator<FlippedRow> {
  for (const [candidateId, paired] of Object.entries(comparison.paired ?? {})) {
    for (let offset = 0; ; offset += FLIP_PAGE) {
      const page = await listFlips(db, comparison.baselineId, candidateId, { offset, limit: FLIP_PAGE, paired });
      for (const flip of page.items) yield toFlippedRow(candidateId, flip);
      if (page.items.length < FLIP_PAGE) break;
    }
  }
}

/** `?part=statistics` as CSV: one line per (metric, candidate) with the columns above. */
export async function* comparisonStatisticsCsv(comparison: Comparison): AsyncGenerator<string> {
  let text = csvLine(STATISTICS_COLUMNS);
  for (const record of comparisonStatistics(comparison)) text += csvLine(STATISTICS_COLUMNS.map((c) => record[c]));
  yield text;
}

/** `?part=flips` as CSV: one line per flipped row with the columns above. */
export async function* flippedRowsCsv(db: Db, comparison: Comparison): AsyncGenerator<string> {
  let text = csvLine(FLIPPED_ROW_COLUMNS);
  for await (const flip of flippedRows(db, comparison)) {
    text += csvLine(FLIPPED_ROW_COLUMNS.map((c) => flip[c]));
    if (text.length >= 64 * 1024) {
      yield text;
      text = "";
    }
  }
  yield text;
}

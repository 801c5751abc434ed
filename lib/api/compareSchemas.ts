import { z } from "zod";
import { CORRECTIONS, DEFAULT_ALPHA, DEFAULT_CORRECTION } from "@/lib/stats";
import { pairwiseDetailSchema } from "./pairwiseSchemas";

/** The compare operation's query and answer (GET /api/v1/compare), shared by its route and the CLI's gate. */
export const comparisonQuerySchema = z.object({
  runs: z
    .string()
    .min(1)
    .max(2000)
    .meta({ description: "Run ids, comma-separated (2 to 8)" })
    .transform((text) => [
      ...new Set(
        text
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(200)).min(2, "Give at least two runs.").max(8, "Compare at most eight runs.")),
  baseline: z.string().max(200).optional().meta({ description: "One of `runs`; the first by default" }),
  flips: z.coerce.number().int().min(0).max(500).default(20).meta({ description: "How many flipped rows to list" }),
  alpha: z.coerce
    .number()
    .gt(0)
    .lt(0.5)
    .default(DEFAULT_ALPHA)
    .meta({ description: "The tests' level: real when the (adjusted) p < alpha" }),
  correction: z
    .enum(CORRECTIONS, { error: `correction must be one of ${CORRECTIONS.join(", ")}` })
    .default(DEFAULT_CORRECTION)
    .meta({
      description:
        "How each candidate's metrics are read together: holm (family-wise error at alpha, the default), bh (Benjamini–Hochberg, false discovery rate) or none",
    }),
});

const nullableNumber = z.number().nullable();

export const metricStatisticsSchema = z
  .object({
    metric: z.string(),
    baseline_run_id: z.string(),
    candidate_run_id: z.string(),
    unit: z.enum(["rate", "score", "seconds", "tokens", "calls"]),
    baseline_value: nullableNumber,
    candidate_value: nullableNumber,
    delta: nullableNumber.meta({ description: "Candidate minus baseline, on delta_basis" }),
    delta_basis: z.enum(["paired_rows", "overall"]),
    overall_delta: nullableNumber,
    interval_low: nullableNumber,
    interval_high: nullableNumber,
    p_value: nullableNumber.meta({
      description: "The paired test's p: exact McNemar for yes/no, the bootstrap's or the normal's for scores",
    }),
    adjusted_p_value: nullableNumber.meta({
      description: "p_value adjusted for the candidate's other tested metrics (null with correction none)",
    }),
    correction: z.enum(CORRECTIONS),
    family_size: z.number().int().meta({ description: "How many of the candidate's metrics were read together" }),
    test: z.enum(["exact_mcnemar", "paired_bootstrap", "paired_normal"]).nullable(),
    verdict: z.enum(["better", "worse", "noise", "n/a"]),
    words: z.string().meta({ example: "Real regression: −12.0 points (95% CI −18.1 to −5.9; p = 0.0004)" }),
    paired_rows: z.number().int(),
    unpaired_rows: z.number().int(),
    regressions: z.number().int().nullable(),
    improvements: z.number().int().nullable(),
    judged_differently: z.string().nullable(),
  })
  .meta({ id: "MetricStatistics" });

export const flippedRowSchema = z
  .object({
    candidate_run_id: z.string(),
    request_id: z.string(),
    row_number: z.number().int(),
    metric: z.string(),
    kind: z.enum(["verdict", "success"]),
    direction: z.enum(["regression", "improvement"]),
    baseline: z.string(),
    candidate: z.string(),
    baseline_score: nullableNumber,
    candidate_score: nullableNumber,
    url: z.string().meta({ description: "Both runs' verdicts on this row, side by side, on this server" }),
  })
  .meta({ id: "FlippedRow" });

export const rowPairingSchema = z
  .object({
    paired: z.number().int(),
    only_baseline: z.number().int(),
    only_candidate: z.number().int(),
    same_id_different_request: z
      .number()
      .int()
      .meta({ description: "Rows whose request_id is on both sides with different requests: not paired" }),
    words: z.string(),
  })
  .meta({ id: "RowPairing" });

export const comparisonSchema = z
  .object({
    baselineId: z.string(),
    alpha: z.number().meta({ description: "The tests' level; intervals are (1 − alpha) intervals" }),
    correction: z.enum(CORRECTIONS).meta({ description: "How each candidate's metrics were read together" }),
    runs: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        datasetId: z.string(),
        datasetName: z.string(),
        status: z.string(),
        judge: z.object({ provider: z.string(), model: z.string() }),
        metrics: z.array(z.string()).meta({ description: "The metrics the run asked for" }),
        trials: z.number().int().meta({ description: "How many times the run judged each row (1 without trials)" }),
        flakyRows: z.number().int().meta({
          description: "Rows whose trials disagree on some metric (0 for a run without trials)",
        }),
      }),
    ),
    sameDataset: z.boolean(),
    rowPairings: z.record(z.string(), rowPairingSchema).meta({
      description:
        "Per candidate on another dataset than the baseline's: its rows paired with the baseline's by request_id where the request is the same too",
    }),
    statistics: z.array(metricStatisticsSchema).meta({ description: "One record per (metric, candidate run)" }),
    flips: z.array(flippedRowSchema).meta({ description: "The first `flips` flipped rows, regressions first" }),
    flipTotals: z
      .record(z.string(), z.object({ regressions: z.number().int(), improvements: z.number().int() }))
      .meta({ description: "Per candidate: every flipped (row, metric) of its paired rows, not only those listed" }),
    pairwise: z.array(pairwiseDetailSchema).meta({
      description:
        "Per candidate with a pairwise comparison against the baseline: its newest, each criterion read in the candidate's family with the metrics",
    }),
    url: z.string().meta({ description: "The comparison's page on this server" }),
  })
  .meta({ id: "Comparison" });

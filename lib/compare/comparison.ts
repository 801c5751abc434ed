import type { MetricJudge } from "@/lib/db/judgments/judgeProvenanceQueries";
import type { PairedCounts } from "@/lib/db/judgments/compareQueries";
import type { RowPairingCounts } from "@/lib/db/judgments/rowPairing";
import type { Aggregate, metricShape } from "@/lib/contract/aggregates";
import type { Correction } from "@/lib/stats";
import type { MetricDelta } from "./metricDelta";
import type { PairwiseView } from "./pairwiseResults";

/** What compareRuns answers (compareRuns.ts), and what it is asked. */
export type CompareRun = {
  id: string;
  name: string;
  datasetId: string;
  datasetName: string;
  judgeProvider: string;
  judgeModel: string;
  generationModel: string | null;
  status: string;
  /** When it finished (null while judging): with the status, what cached figures of the run are keyed on. */
  finishedAt: Date | null;
  /** The metrics the run asked for (its config), in its order. */
  metrics: string[];
  /** How many times the run judged each row (1 without trials). */
  trials: number;
  /**
   * How the run was judged: its settings, and per metric the judges and prompt versions its finished judgments
   * record (empty, with metricJudgesPending, while they are still being read from a large run's judgments).
   */
  judging: {
    chunkMode: string;
    thresholds: Record<string, number>;
    metricJudges: MetricJudge[];
    metricJudgesPending?: boolean;
  };
};

export type MetricCell = {
  aggregate: Aggregate | null;
  /** The 95% Wilson interval of a yes-rate; null for averages. */
  interval: { low: number; high: number } | null;
  /** For a DeepEval or Mastra score: the 95% Wilson interval of its success percentage (counted in SQL by getRunAggregates). */
  successInterval?: { low: number; high: number } | null;
};
export type { MetricDelta, ScoreIntervalMethod } from "./metricDelta";

export type Comparison = {
  runs: CompareRun[];
  baselineId: string;
  sameDataset: boolean;
  metrics: {
    metric: string;
    shape: ReturnType<typeof metricShape>;
    cells: Record<string, MetricCell>;
    deltas: Record<string, MetricDelta>;
  }[];
  /** Paired counts per candidate: yes/no cells (McNemar) and score success flips, reused for the flip list's total. */
  paired?: Record<string, PairedCounts[]>;
  /**
   * Per candidate on another dataset than the baseline's: how its rows paired with the baseline's by
   * request_id and request (lib/db/judgments/rowPairing.ts). Its deltas and tests are on the paired rows.
   */
  rowPairings?: Record<string, RowPairingCounts>;
  /** Candidates whose paired counts were still being read at the deadline: their tests and flips are computing. */
  pairedPending?: string[];
  /** Deltas whose test was not ready by the deadline (paired counts, bootstrap); asking again later shows them. */
  pendingDeltas?: number;
  /**
   * How the verdicts read the metrics together: the correction, and per candidate how many metrics had a
   * paired test (its family; correctDeltas.ts).
   */
  correction: { method: Correction; alpha: number; family: Record<string, number> };
  /**
   * Per candidate with a pairwise comparison against the baseline: its newest one, each criterion's result read
   * in the candidate's family with the metrics (pairwiseResults.ts).
   */
  pairwise?: Record<string, PairwiseView>;
};

export type CompareOptions = {
  /**
   * How long to wait for completed runs' paired counts, their judges and score deltas' bootstrap intervals
   * before answering with the rest marked pending (they go on being computed in the background and are
   * cached). Every test waited for by default (Infinity): exports, the API, the CLI gate. The compare page
   * passes DEFAULT_COMPARE_WAIT_MS, to answer within its target whatever the runs' size.
   */
  waitMs?: number;
  /** Score deltas over more paired rows than this take the normal interval instead of the bootstrap (BOOTSTRAP_MAX_PAIRS). */
  bootstrapMaxPairs?: number;
  /**
   * The tests' level: a delta is real when p < alpha (McNemar) or its (1 − alpha) interval excludes 0, and
   * the delta intervals are (1 − alpha) intervals. 0.05 by default, as the page shows; a CI gate may ask for
   * another (the CLI's --alpha).
   */
  alpha?: number;
  /**
   * How each candidate's metrics are read together (lib/stats/multipleComparisons.ts): Holm's adjustment of
   * their p-values by default, Benjamini–Hochberg, or none (each metric on its own at alpha).
   */
  correction?: Correction;
};

import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { databaseUrlOf, type Db } from "@/lib/db/client";
import {
  getPairedSums,
  getScorePairs,
  type PairedCounts,
  type ScoreDifferenceSums,
} from "@/lib/db/judgments/compareQueries";
import { getRowPairingCounts, type RowPairingCounts } from "@/lib/db/judgments/rowPairing";
import { getRunProvenance, type MetricJudge } from "@/lib/db/judgments/judgeProvenanceQueries";
import { getRun } from "@/lib/db/runs/runQueries";
import { trialsOf } from "@/lib/db/runs/storedRun";
import { readPairedRowMeans, type PairedRowMeans } from "@/lib/db/judgments/trialPairing";
import { metricShape, type Aggregate } from "@/lib/contract/aggregates";
import { DEFAULT_ALPHA, DEFAULT_CORRECTION, pairedNormalMeanDiff, wilsonInterval, type Correction } from "@/lib/stats";
import {
  BOOTSTRAP_ITERATIONS,
  BOOTSTRAP_SEED,
  bootstrapInterval,
  bootstrapIntervalQueued,
  settledBy,
} from "./bootstrapIntervals";
import { trialsMetricDelta } from "./trialsDelta";
import { readOfCompletedRuns } from "@/lib/db/cache/completedRunReads";
import { binaryDelta } from "./binaryDelta";
import { correctFamilies } from "./correctDeltas";
import { describeScoreDelta } from "./describeScoreDelta";
import type { MetricDelta } from "./metricDelta";
import { judgedDifferently } from "./judgeDifferences";
import { readPairwiseView, type PairwiseView } from "./pairwiseResults";

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
  /** How the run was judged: its settings, and per metric the judges and prompt versions its finished judgments record. */
  judging: { chunkMode: string; thresholds: Record<string, number>; metricJudges: MetricJudge[] };
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
  /** Score deltas whose bootstrap was not ready by the deadline; asking again later shows them. */
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
   * How long to wait for score deltas' bootstrap intervals before answering with the rest marked pending
   * (they go on being computed in the background and are cached). The page waits a little; tests and
   * scripts that need every delta pass Infinity.
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

/**
 * The most paired rows a score delta is bootstrapped over. Above it, reading every pair out of the store and
 * drawing 1,000 resamples of them costs seconds to minutes (two million-row runs: over two minutes a metric),
 * while the normal interval from three sums the paired GROUP BY already computes agrees with the bootstrap
 * to within its own resampling error (tests/stats/pairedNormal.test.ts, at 20,000 pairs).
 */
export const BOOTSTRAP_MAX_PAIRS = 50_000;

/** The compare page's wait for bootstrap intervals: long enough for a usual comparison to come complete. */
export const DEFAULT_BOOTSTRAP_WAIT_MS = 1500;

type LoadedRun = NonNullable<Awaited<ReturnType<typeof getRun>>>;

/**
 * Compares runs against a baseline: every metric's aggregate per run with its
 * 95% interval, and a paired significance test of each delta on the rows both
 * runs judged (exact McNemar for yes/no, a paired bootstrap of the mean
 * difference for scores). A run on another dataset pairs its rows with the
 * baseline's by request_id where the request is the same too (rowPairing.ts);
 * with no row paired it is compared on aggregates only. Score deltas not ready
 * within `waitMs` come back pending (bootstrapIntervals.ts explains why).
 */
export async function compareRuns(
  db: Db,
  runIds: string[],
  baselineId: string,
  options: CompareOptions = {},
): Promise<Comparison | null> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_BOOTSTRAP_WAIT_MS);
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const loaded = await Promise.all(runIds.map((id) => getRun(db, id)));
  const found = loaded.filter((run) => run !== null);
  if (found.length !== loaded.length) return null;
  const baseline = found.find((run) => run.id === baselineId) ?? found[0];
  // The baseline leads every table and chart; the others keep the order they were picked in.
  const runs = [baseline, ...found.filter((run) => run.id !== baseline.id)];
  const metricOrder = [...new Set(runs.flatMap((run) => run.config.metrics))];
  // Completed runs' reads come from memory when seen before (completedRunCache.ts says why that is exact).
  const store = databaseUrlOf(db);
  // Each run's aggregates and the judges its judgments record come in one read (one cache entry per run).
  const perRun = new Map(
    await Promise.all(
      runs.map(async (run) => {
        const read = async () => ({
          aggregates: await getRunAggregates(db, run.id, metricOrder),
          ...(await getRunProvenance(db, run.id)),
        });
        return [
          run.id,
          await readOfCompletedRuns(db, `${store}|aggregates+judges+passmarks|${metricOrder.join(",")}`, [run], read),
        ] as const;
      }),
    ),
  );
  const aggregates = new Map([...perRun].map(([id, read]) => [id, read.aggregates]));
  const judgesByRun = new Map([...perRun].map(([id, read]) => [id, read.judges]));
  const judgingOf = (run: LoadedRun, metric: string, shape: ReturnType<typeof metricShape>) => ({
    judges: (judgesByRun.get(run.id) ?? []).filter((judge) => judge.metric === metric),
    // The marks the judgments were scored against, not the run's settings: a G-Eval judge's own threshold
    // counts, and an unset mark equals its default. A yes/no metric's pass mark is on the share of yes,
    // which a delta of yes-rates does not depend on.
    passMarks:
      shape === "rating"
        ? []
        : (perRun.get(run.id)?.passMarks ?? []).filter((mark) => mark.metric === metric).map((mark) => mark.threshold),
  });
  // How each candidate on another dataset pairs its rows with the baseline's (datasets do not change once uploaded).
  const rowPairings = new Map(
    await Promise.all(
      runs
        .filter((run) => run.datasetId !== baseline.datasetId)
        .map(async (run) => {
          const read = () => getRowPairingCounts(db, baseline.datasetId, run.datasetId);
          return [run.id, await readOfCompletedRuns(db, `${store}|row-pairing`, [baseline, run], read)] as const;
        }),
    ),
  );
  // One paired GROUP BY per candidate with rows paired to the baseline's, shared by all its metrics.
  const pairedByRun = new Map(
    await Promise.all(
      runs
        .filter((run) => run.id !== baseline.id && (rowPairings.get(run.id)?.paired ?? 1) > 0)
        .map(async (run) => {
          const read = () => getPairedSums(db, baseline.id, run.id);
          return [run.id, await readOfCompletedRuns(db, `${store}|paired+sums`, [baseline, run], read)] as const;
        }),
    ),
  );

  // With trials, each candidate's rows' means over their trials, every metric in one read per run (kept in memory
  // for completed runs, as the paired counts are).
  const trialMeans = new Map<string, Promise<PairedRowMeans>>();
  const trialRowMeans = (run: LoadedRun) => {
    let means = trialMeans.get(run.id);
    if (!means) {
      means = readOfCompletedRuns(db, `${store}|trial-row-means`, [baseline, run], () =>
        readPairedRowMeans(db, baseline.id, run.id),
      );
      trialMeans.set(run.id, means);
    }
    return means;
  };
  const metrics = await Promise.all(
    metricOrder.map(async (metric) => {
      const shape = metricShape(metric);
      const cells: Record<string, MetricCell> = {};
      for (const run of runs) {
        const aggregate = aggregates.get(run.id)?.find((a) => a.metric === metric) ?? null;
        const success = aggregate?.success;
        cells[run.id] = {
          aggregate,
          interval:
            aggregate && aggregate.kind === "percentage"
              ? (aggregate.interval ?? wilsonInterval(aggregate.numerator, aggregate.denominator))
              : null,
          successInterval:
            success && success.denominator > 0
              ? (success.interval ?? wilsonInterval(success.numerator, success.denominator))
              : null,
        };
      }
      const deltas: Record<string, MetricDelta> = {};
      for (const run of runs) {
        if (run.id === baseline.id) continue;
        const base = cells[baseline.id].aggregate?.value ?? null;
        const value = cells[run.id].aggregate?.value ?? null;
        const delta = base === null || value === null ? null : value - base;
        const unpairable = !pairedByRun.has(run.id);
        if (unpairable || delta === null) {
          deltas[run.id] = {
            delta,
            verdict: "n/a",
            words: unpairable ? "different dataset, no request in common: aggregate only" : "not computed in both runs",
            pairs: 0,
            unpaired: 0,
          };
          continue;
        }
        const paired = pairedByRun.get(run.id);
        deltas[run.id] =
          trialsOf(baseline.config) > 1 || trialsOf(run.config) > 1
            ? trialsMetricDelta(
                (await trialRowMeans(run)).get(metric) ?? { baseline: [], candidate: [] },
                metric,
                shape === "rating" ? "rating" : "score",
                delta,
                alpha,
              )
            : shape === "rating"
              ? binaryDelta(paired?.counts ?? [], metric, delta, alpha)
              : await scoreDelta(
                  db,
                  { run: baseline, cell: cells[baseline.id] },
                  { run, cell: cells[run.id] },
                  {
                    metric,
                    delta,
                    deadline,
                    sums: paired?.scoreDifferences.find((sums) => sums.metric === metric),
                    bootstrapMaxPairs: options.bootstrapMaxPairs ?? BOOTSTRAP_MAX_PAIRS,
                    alpha,
                  },
                );
        const note = judgedDifferently(judgingOf(baseline, metric, shape), judgingOf(run, metric, shape));
        if (note) deltas[run.id].judgedDifferently = note;
      }
      return { metric, shape, cells, deltas };
    }),
  );
  // A candidate's pairwise comparison against the baseline (its newest), each criterion one more test of its family.
  const pairwise = new Map<string, PairwiseView>();
  for (const run of runs.slice(1)) {
    const view = await readPairwiseView(db, baseline, run, alpha);
    if (view) pairwise.set(run.id, view);
  }
  const correction = options.correction ?? DEFAULT_CORRECTION;
  const family = correctFamilies(
    runs.slice(1).map((run) => run.id),
    metrics,
    pairwise,
    { correction, alpha },
  );

  return {
    runs: runs.map((run) => ({
      id: run.id,
      name: run.name,
      datasetId: run.datasetId,
      datasetName: run.dataset.name,
      judgeProvider: run.judgeProvider,
      judgeModel: run.judgeModel,
      generationModel: run.generationModel,
      status: run.status,
      finishedAt: run.finishedAt,
      metrics: run.config.metrics,
      trials: trialsOf(run.config),
      judging: {
        chunkMode: run.config.chunkMode,
        thresholds: run.config.thresholds,
        metricJudges: judgesByRun.get(run.id) ?? [],
      },
    })),
    baselineId: baseline.id,
    sameDataset: runs.every((run) => run.datasetId === baseline.datasetId),
    metrics,
    paired: Object.fromEntries([...pairedByRun].map(([id, sums]) => [id, sums.counts])),
    rowPairings: Object.fromEntries(rowPairings),
    pendingDeltas: metrics.reduce(
      (sum, m) => sum + Object.values(m.deltas).filter((d) => d.verdict === "pending").length,
      0,
    ),
    correction: { method: correction, alpha, family },
    ...(pairwise.size > 0 ? { pairwise: Object.fromEntries(pairwise) } : {}),
  };
}

type Side = { run: LoadedRun; cell: MetricCell };

async function scoreDelta(
  db: Db,
  baseline: Side,
  candidate: Side,
  {
    metric,
    delta,
    deadline,
    sums,
    bootstrapMaxPairs,
    alpha,
  }: {
    metric: string;
    delta: number;
    deadline: number;
    sums?: ScoreDifferenceSums;
    bootstrapMaxPairs: number;
    alpha: number;
  },
): Promise<MetricDelta> {
  if (sums && sums.pairs > bootstrapMaxPairs)
    return describeScoreDelta(metric, delta, pairedNormalMeanDiff(sums, 1 - alpha), sums.pairs, "paired_normal", alpha);
  const key = [
    databaseUrlOf(db),
    metric,
    BOOTSTRAP_ITERATIONS,
    BOOTSTRAP_SEED,
    alpha,
    stamp(baseline),
    stamp(candidate),
  ].join("\u0000");
  // Only the request that queues an interval waits for it (and a caller that waits for everything, an export).
  // One queued by an earlier request is still being computed (or is ready, and taken at once): waiting again
  // would hold every refresh of the page the whole wait (1.5 s a request at 100,000 rows on PostgreSQL) while
  // the page already says "computing…".
  const queued = bootstrapIntervalQueued(key);
  const computed = await settledBy(
    bootstrapInterval(key, () => getScorePairs(db, baseline.run.id, candidate.run.id, metric), 1 - alpha),
    queued && deadline !== Infinity ? Math.min(deadline, Date.now()) : deadline,
  );
  if (!computed)
    return {
      delta,
      verdict: "pending",
      words: "Significance still being computed (paired bootstrap); reload in a moment",
      pairs: 0,
      unpaired: 0,
    };
  return describeScoreDelta(metric, delta, computed.interval, computed.pairs, "paired_bootstrap", alpha);
}

/**
 * What a run's scores for one metric depend on, as far as the cache can tell without reading them: its
 * status and finish time (a re-judge or a resume puts the run back to pending and finishes it anew), and
 * the metric's aggregate (its count, average, errors and pending judgments change while a run is judged).
 */
function stamp({ run, cell }: Side): string {
  const aggregate = cell.aggregate;
  return [
    run.id,
    run.status,
    run.finishedAt?.toISOString() ?? "",
    aggregate ? [aggregate.denominator, aggregate.value, aggregate.errors, aggregate.pending].join(",") : "",
  ].join("|");
}

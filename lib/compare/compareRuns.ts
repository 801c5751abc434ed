import { databaseUrlOf, type Db } from "@/lib/db/client";
import { getScorePairs, type ScoreDifferenceSums } from "@/lib/db/judgments/compareQueries";
import { getRowPairingCounts } from "@/lib/db/judgments/rowPairing";
import { getRun } from "@/lib/db/runs/runQueries";
import { trialsOf } from "@/lib/db/runs/storedRun";
import { readPairedRowMeans, type PairedRowMeans } from "@/lib/db/judgments/trialPairing";
import { metricShape } from "@/lib/contract/aggregates";
import { DEFAULT_ALPHA, DEFAULT_CORRECTION, pairedNormalMeanDiff, wilsonInterval } from "@/lib/stats";
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
import { readAggregates, readPairedSums, readProvenance } from "./compareReads";
import type { CompareOptions, Comparison, MetricCell } from "./comparison";

export type {
  CompareOptions,
  CompareRun,
  Comparison,
  MetricCell,
  MetricDelta,
  ScoreIntervalMethod,
} from "./comparison";

/**
 * The most paired rows a score delta is bootstrapped over. Above it, reading every pair out of the store and
 * drawing 1,000 resamples of them costs seconds to minutes (two million-row runs: over two minutes a metric),
 * while the normal interval from three sums the paired GROUP BY already computes agrees with the bootstrap
 * to within its own resampling error (tests/stats/pairedNormal.test.ts, at 20,000 pairs).
 */
export const BOOTSTRAP_MAX_PAIRS = 50_000;

/**
 * The compare page's wait for what is read or computed in the background (paired counts, judges, bootstrap
 * intervals): long enough for a usual comparison to come complete, short enough that the first request for
 * runs of any size answers within the page's 1 s target. The first request for two 100,000-row runs took 1.6 s
 * on SQLite with 1.5 s, and 1.5 s (SQLite) and 1.1 s (PostgreSQL) with 0.8 s: rendering the page shares the
 * server with the reads going on in the background.
 */
export const DEFAULT_COMPARE_WAIT_MS = 400;

type LoadedRun = NonNullable<Awaited<ReturnType<typeof getRun>>>;

/**
 * Compares runs against a baseline: every metric's aggregate per run with its
 * 95% interval, and a paired significance test of each delta on the rows both
 * runs judged (exact McNemar for yes/no, a paired bootstrap of the mean
 * difference for scores). A run on another dataset pairs its rows with the
 * baseline's by request_id where the request is the same too (rowPairing.ts);
 * with no row paired it is compared on aggregates only. Tests not ready within
 * `waitMs` come back pending (compareReads.ts and bootstrapIntervals.ts say why).
 */
export async function compareRuns(
  db: Db,
  runIds: string[],
  baselineId: string,
  options: CompareOptions = {},
): Promise<Comparison | null> {
  const deadline = Date.now() + (options.waitMs ?? Infinity);
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const loaded = await Promise.all(runIds.map((id) => getRun(db, id)));
  const found = loaded.filter((run) => run !== null);
  if (found.length !== loaded.length) return null;
  const baseline = found.find((run) => run.id === baselineId) ?? found[0];
  // The baseline leads every table and chart; the others keep the order they were picked in.
  const runs = [baseline, ...found.filter((run) => run.id !== baseline.id)];
  const metricOrder = [...new Set(runs.flatMap((run) => run.config.metrics))];
  // Completed runs' reads come from memory when seen before (completedRunCache.ts says why that is exact); the
  // judges and the paired sums, read from every judgment, may come back pending (compareReads.ts).
  const store = databaseUrlOf(db);
  const aggregates = await readAggregates(db, runs, metricOrder);
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
  // Then the two reads that grow with the runs, together: one paired GROUP BY per candidate with rows paired to
  // the baseline's (shared by all its metrics), and each run's judges.
  const [provenance, { paired: pairedByRun, pending: pairedPending }] = await Promise.all([
    readProvenance(db, runs, deadline),
    readPairedSums(
      db,
      baseline,
      runs.filter((run) => run.id !== baseline.id && (rowPairings.get(run.id)?.paired ?? 1) > 0),
      deadline,
    ),
  ]);
  const judgesByRun = new Map([...provenance].map(([id, read]) => [id, read.judges]));
  // Null while a run's judges are still being read: whether two runs were judged alike is not known yet.
  const judgingOf = (run: LoadedRun, metric: string, shape: ReturnType<typeof metricShape>) => {
    const read = provenance.get(run.id);
    if (!read) return null;
    return {
      judges: read.judges.filter((judge) => judge.metric === metric),
      // The marks the judgments were scored against, not the run's settings: a G-Eval judge's own threshold
      // counts, and an unset mark equals its default. A yes/no metric's pass mark is on the share of yes,
      // which a delta of yes-rates does not depend on.
      passMarks:
        shape === "rating" ? [] : read.passMarks.filter((mark) => mark.metric === metric).map((mark) => mark.threshold),
    };
  };
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
        if (pairedPending.has(run.id) && delta !== null) {
          deltas[run.id] = {
            delta,
            verdict: "pending",
            words: "Significance still being computed (paired counts of every row); reload in a moment",
            pairs: 0,
            unpaired: 0,
          };
          continue;
        }
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
        const [baseJudging, candidateJudging] = [judgingOf(baseline, metric, shape), judgingOf(run, metric, shape)];
        const note = baseJudging && candidateJudging && judgedDifferently(baseJudging, candidateJudging);
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
        ...(provenance.has(run.id) ? {} : { metricJudgesPending: true }),
      },
    })),
    baselineId: baseline.id,
    sameDataset: runs.every((run) => run.datasetId === baseline.datasetId),
    metrics,
    paired: Object.fromEntries([...pairedByRun].map(([id, sums]) => [id, sums.counts])),
    rowPairings: Object.fromEntries(rowPairings),
    ...(pairedPending.size > 0 ? { pairedPending: [...pairedPending] } : {}),
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
  // One queued by an earlier request is still being computed (or is ready, and taken at once): not waited for again.
  const queued = bootstrapIntervalQueued(key);
  const computed = await settledBy(
    bootstrapInterval(key, () => getScorePairs(db, baseline.run.id, candidate.run.id, metric), 1 - alpha),
    deadline,
    queued,
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

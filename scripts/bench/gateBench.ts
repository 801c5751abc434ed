// npm run bench:gate — how often compare's verdicts cry wolf, and how often they catch a real drop. Thousands
// of simulated comparisons of 14 metrics (10 yes/no, 4 scores) go through the code that makes compare's
// verdicts (binaryDelta.ts for one trial, trialsDelta.ts over trials, describeScoreDelta.ts on the same
// bootstrap for scores, correctDeltas.ts for the correction), never a copy of their formulas.
//
// The model. Each row of each metric has a true verdict, yes with the base rate (80 %), shared by both runs
// (the same requests). A judge reports it wrong with probability NOISE (10 %), independently per trial and
// per run. A score metric's row has a true score (uniform on [0.3, 1]); a trial reports it plus a small
// jitter, or with probability NOISE a uniformly random score. A/A: nothing differs between the two runs. A/B:
// the candidate loses 5 points of true yes-rate on one yes/no metric (80 % → 75 %: 6.25 % of its true yes
// rows turn no). Each cell prints the share with its 95 % Wilson interval.
//
// GATE_BENCH_SCALE=0.25 runs a quarter of the comparisons (for a quick look; the intervals widen).
import { binaryDelta } from "../../lib/compare/binaryDelta";
import { BOOTSTRAP_ITERATIONS, BOOTSTRAP_SEED } from "../../lib/compare/bootstrapIntervals";
import { correctDeltas } from "../../lib/compare/correctDeltas";
import { describeScoreDelta } from "../../lib/compare/describeScoreDelta";
import type { MetricDelta } from "../../lib/compare/metricDelta";
import { yesNoTrialsDelta } from "../../lib/compare/trialsDelta";
import type { PairedCounts } from "../../lib/db/judgments/compareQueries";
import { mulberry32, pairedBootstrapMeanDiff, wilsonInterval, type Correction } from "../../lib/stats";

const YES_NO = [
  "response/llm_judged/correctness",
  "response/llm_judged/relevance_to_query",
  "response/llm_judged/safety",
  "response/llm_judged/groundedness",
  "retrieval/llm_judged/context_sufficiency",
  // Custom judges (a team's own yes/no criteria) are yes/no metrics too.
  "response/llm_judged/guideline_adherence",
  "response/llm_judged/tone",
  "response/llm_judged/conciseness",
  "response/llm_judged/citations",
  "response/llm_judged/refusal",
];
const SCORES = [
  "response/llm_judged/faithfulness",
  "response/llm_judged/answer_relevancy",
  "retrieval/llm_judged/contextual_relevancy",
  "retrieval/llm_judged/context_relevance",
];
/** The yes/no metric that drops in the A/B cells. */
const DROPPING = YES_NO[0];
const ALPHA = 0.05;
const BASE_RATE = 0.8;
const NOISE = 0.1;
const DROP = 0.05;
const SCALE = Number(process.env.GATE_BENCH_SCALE ?? 1);
const TARGETS = { falseAlarm: 0.05, power: 0.8 };

type Cell = { rows: number; trials: number; comparisons: number; drop: number };

/** One run's observations of one metric: per row, the share of its trials that said yes (or its mean score). */
function observeYesNo(truth: Uint8Array, trials: number, random: () => number): number[] {
  return Array.from(truth, (yes) => {
    let said = 0;
    for (let t = 0; t < trials; t++) said += (random() < NOISE ? 1 - yes : yes) ? 1 : 0;
    return said / trials;
  });
}

function observeScores(truth: Float64Array, trials: number, random: () => number): number[] {
  return Array.from(truth, (score) => {
    let sum = 0;
    for (let t = 0; t < trials; t++)
      sum += random() < NOISE ? random() : Math.min(1, Math.max(0, score + (random() - 0.5) * 0.1));
    return sum / trials;
  });
}

/** The paired counts binaryDelta reads from SQL, counted from one trial's verdicts. */
function pairedCounts(metric: string, baseline: number[], candidate: number[]): PairedCounts {
  const counts = { yesYes: 0, yesNo: 0, noYes: 0, noNo: 0 };
  baseline.forEach((b, i) => {
    const c = candidate[i];
    if (b && c) counts.yesYes++;
    else if (b) counts.yesNo++;
    else if (c) counts.noYes++;
    else counts.noNo++;
  });
  return { metric, both: baseline.length, ...counts, passFail: 0, failPass: 0, onlyBaseline: 0, onlyCandidate: 0 };
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** One simulated comparison: every metric's delta as compare makes it, before any correction. */
function simulateComparison(cell: Cell, random: () => number): { metric: string; delta: MetricDelta }[] {
  const deltas: { metric: string; delta: MetricDelta }[] = [];
  for (const metric of YES_NO) {
    const truth = Uint8Array.from({ length: cell.rows }, () => (random() < BASE_RATE ? 1 : 0));
    const candidateTruth =
      metric === DROPPING && cell.drop > 0
        ? truth.map((yes) => (yes && random() < cell.drop / BASE_RATE ? 0 : yes))
        : truth;
    const baseline = observeYesNo(truth, cell.trials, random);
    const candidate = observeYesNo(candidateTruth, cell.trials, random);
    const delta =
      cell.trials === 1
        ? binaryDelta([pairedCounts(metric, baseline, candidate)], metric, mean(candidate) - mean(baseline), ALPHA)
        : yesNoTrialsDelta(baseline, candidate, ALPHA);
    deltas.push({ metric, delta });
  }
  for (const metric of SCORES) {
    const truth = Float64Array.from({ length: cell.rows }, () => 0.3 + 0.7 * random());
    const baseline = observeScores(truth, cell.trials, random);
    const candidate = observeScores(truth, cell.trials, random);
    // What compareRuns' background bootstrap computes (bootstrapIntervals.ts), then its words and verdict.
    const interval = pairedBootstrapMeanDiff(baseline, candidate, {
      iterations: BOOTSTRAP_ITERATIONS,
      seed: BOOTSTRAP_SEED,
      confidence: 1 - ALPHA,
    });
    const delta = describeScoreDelta(
      metric,
      mean(candidate) - mean(baseline),
      interval,
      cell.rows,
      "paired_bootstrap",
      ALPHA,
    );
    deltas.push({ metric, delta });
  }
  return deltas;
}

type Tally = { anyRegression: number; dropFound: number };

function runCell(cell: Cell, seed: number): Record<Correction, Tally> {
  const random = mulberry32(seed);
  const tallies: Record<Correction, Tally> = {
    holm: { anyRegression: 0, dropFound: 0 },
    bh: { anyRegression: 0, dropFound: 0 },
    none: { anyRegression: 0, dropFound: 0 },
  };
  for (let i = 0; i < cell.comparisons; i++) {
    const raw = simulateComparison(cell, random);
    for (const correction of ["holm", "bh", "none"] as const) {
      const { deltas } = correctDeltas(raw, correction, ALPHA);
      const worse = deltas.map((delta, index) => ({ metric: raw[index].metric, worse: delta.verdict === "worse" }));
      if (worse.some((m) => m.worse)) tallies[correction].anyRegression++;
      if (worse.some((m) => m.worse && m.metric === DROPPING)) tallies[correction].dropFound++;
    }
  }
  return tallies;
}

function share(count: number, total: number): string {
  const interval = wilsonInterval(count, total);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return `${pct(count / total)} (${pct(interval?.low ?? 0)}–${pct(interval?.high ?? 0)})`;
}

function main(): void {
  const started = performance.now();
  const comparisons = (n: number) => Math.max(20, Math.round(n * SCALE));
  console.log(
    `bench:gate: ${YES_NO.length} yes/no + ${SCORES.length} score metrics, base rate ${BASE_RATE * 100} %, judge noise ${NOISE * 100} % per trial, α = ${ALPHA}`,
  );
  console.log(
    '\nA/A: nothing differs; share of comparisons with at least one "real regression" (family-wise false alarms)',
  );
  console.log("rows  trials  comparisons  holm (default)         bh                     none");
  let worstFalseAlarm = 0;
  for (const trials of [1, 3]) {
    const cell = { rows: 500, trials, comparisons: comparisons(2000), drop: 0 };
    const t = runCell(cell, 1000 + trials);
    worstFalseAlarm = Math.max(worstFalseAlarm, t.holm.anyRegression / cell.comparisons);
    console.log(
      `${String(cell.rows).padEnd(6)}${String(trials).padEnd(8)}${String(cell.comparisons).padEnd(13)}${share(t.holm.anyRegression, cell.comparisons).padEnd(23)}${share(t.bh.anyRegression, cell.comparisons).padEnd(23)}${share(t.none.anyRegression, cell.comparisons)}`,
    );
  }
  console.log(
    `\nA/B: ${DROPPING} drops ${DROP * 100} points (80 % → 75 %); share of comparisons that call it a real regression (power)`,
  );
  console.log("rows  trials  comparisons  holm (default)         bh                     none");
  let powerAt1000x3 = 0;
  for (const rows of [500, 1000])
    for (const trials of [1, 3, 5]) {
      const cell = { rows, trials, comparisons: comparisons(1000), drop: DROP };
      const t = runCell(cell, 2000 + rows + trials);
      if (rows === 1000 && trials === 3) powerAt1000x3 = t.holm.dropFound / cell.comparisons;
      console.log(
        `${String(rows).padEnd(6)}${String(trials).padEnd(8)}${String(cell.comparisons).padEnd(13)}${share(t.holm.dropFound, cell.comparisons).padEnd(23)}${share(t.bh.dropFound, cell.comparisons).padEnd(23)}${share(t.none.dropFound, cell.comparisons)}`,
      );
    }
  const falseAlarmOk = worstFalseAlarm <= TARGETS.falseAlarm;
  const powerOk = powerAt1000x3 >= TARGETS.power;
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  console.log(
    `summary: false alarms with holm at most ${(worstFalseAlarm * 100).toFixed(1)} % (target ≤ ${TARGETS.falseAlarm * 100} %: ${falseAlarmOk ? "met" : "MISSED"}); power at 1,000 rows × 3 trials ${(powerAt1000x3 * 100).toFixed(1)} % (target ≥ ${TARGETS.power * 100} %: ${powerOk ? "met" : "MISSED"})`,
  );
  if (!falseAlarmOk || !powerOk) process.exitCode = 1;
}

main();

import type { LabelValue } from "./krippendorffAlpha";
import type { LabelPattern } from "./peopleAgreement";
import { regularizedBeta } from "./specialFunctions";

/**
 * The alternative annotator test (Calderon, Reichart & Dror, ACL 2025, "The Alternative Annotator Test for
 * LLM-as-a-Judge"), as its authors' reference code runs it (nitaytech/AltTest, `alt_test`):
 *
 * - rows with at least two people's labels and a judge's verdict count;
 * - each labeller with at least `minRows` such rows is left out in turn: on each row, the judge's verdict
 *   and the left-out labeller's are each scored against the remaining labellers' (accuracy: the share of
 *   them it equals; for scores, minus the root mean square difference), and
 *   d = 1[person ≥ judge] − 1[judge ≥ person];
 * - a one-sided one-sample t-test of mean(d) < ε (ε: the cost-benefit allowance the judge is given;
 *   0.2 for experts, 0.15 for skilled, 0.1 for crowd workers, in the authors' words);
 * - the p-values of all left-out labellers are corrected together by Benjamini–Yekutieli at q;
 * - the winning rate is the share of labellers the judge beat; the judge passes at ≥ 0.5. The advantage
 *   probability (the mean of 1[judge ≥ person] over rows, averaged over labellers) ranks judges.
 */
export type AltTestScoring = "accuracy" | "neg_rmse";

export type AltTestLabeller = {
  labeller: number;
  rows: number;
  /** Share of rows where the judge represented the others at least as well as this person. */
  advantage: number;
  pValue: number | null;
  /** Whether the judge beat this person after the correction; null when the person had too few rows. */
  beaten: boolean | null;
};

export type AltTestResult = {
  epsilon: number;
  q: number;
  scoring: AltTestScoring;
  labellers: AltTestLabeller[];
  /** Labellers with enough rows, and the share of them the judge beat. */
  tested: number;
  winningRate: number | null;
  advantageProbability: number | null;
  passed: boolean | null;
  /** Why no verdict, or a caution that comes with it (two labellers). */
  note: string | null;
};

export type JudgedPattern = LabelPattern & { judge: LabelValue | null };

function alignment(scoring: AltTestScoring, value: LabelValue, others: readonly LabelValue[]): number {
  if (scoring === "accuracy") return others.filter((other) => other === value).length / others.length;
  const squares = others.reduce<number>((s, other) => s + (Number(value) - Number(other)) ** 2, 0);
  return -Math.sqrt(squares / others.length);
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t < 0 ? tail : 1 - tail;
}

/** One-sided one-sample t-test of mean < μ0 from the sums of the sample (what scipy's ttest_1samp 'less' gives). */
function tTestLess(n: number, sum: number, sumSquares: number, mu0: number): number {
  const mean = sum / n;
  const variance = (sumSquares - n * mean * mean) / (n - 1);
  if (variance <= 1e-15) return mean < mu0 ? 0 : 1;
  return studentTCdf((mean - mu0) / Math.sqrt(variance / n), n - 1);
}

/** Benjamini–Yekutieli step-up at level q: which tests it rejects. */
export function benjaminiYekutieli(pValues: readonly number[], q: number): boolean[] {
  const m = pValues.length;
  const harmonic = Array.from({ length: m }, (_, i) => 1 / (i + 1)).reduce((s, v) => s + v, 0);
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  let last = -1;
  order.forEach(({ p }, i) => {
    if (p <= ((i + 1) / m) * (q / harmonic)) last = i;
  });
  const rejected = new Array<boolean>(m).fill(false);
  for (let i = 0; i <= last; i++) rejected[order[i].index] = true;
  return rejected;
}

export function alternativeAnnotatorTest(
  patterns: readonly JudgedPattern[],
  labellers: number,
  options: { scoring: AltTestScoring; epsilon?: number; q?: number; minRows?: number },
): AltTestResult {
  const epsilon = options.epsilon ?? 0.15;
  const q = options.q ?? 0.05;
  const minRows = options.minRows ?? 30;
  const usable = patterns.filter(
    (pattern) => pattern.judge !== null && pattern.values.filter((value) => value !== null).length >= 2,
  );
  const results: AltTestLabeller[] = [];
  for (let h = 0; h < labellers; h++) {
    let rows = 0;
    let judgeAtLeast = 0;
    let sum = 0;
    let sumSquares = 0;
    for (const { values, judge, count } of usable) {
      const own = values[h];
      if (own === null || judge === null) continue;
      const others = values.filter((value, i): value is LabelValue => i !== h && value !== null);
      const person = alignment(options.scoring, own, others);
      const machine = alignment(options.scoring, judge, others);
      const d = (person >= machine ? 1 : 0) - (machine >= person ? 1 : 0);
      rows += count;
      if (machine >= person) judgeAtLeast += count;
      sum += d * count;
      sumSquares += d * d * count;
    }
    if (rows === 0) continue;
    results.push({
      labeller: h,
      rows,
      advantage: judgeAtLeast / rows,
      pValue: rows >= minRows ? tTestLess(rows, sum, sumSquares, epsilon) : null,
      beaten: null,
    });
  }
  const tested = results.filter((result) => result.pValue !== null);
  const rejected = benjaminiYekutieli(
    tested.map((result) => result.pValue ?? 1),
    q,
  );
  tested.forEach((result, i) => (result.beaten = rejected[i]));
  const winningRate = tested.length === 0 ? null : rejected.filter(Boolean).length / tested.length;
  const advantageProbability =
    tested.length === 0 ? null : tested.reduce((s, result) => s + result.advantage, 0) / tested.length;
  const enough = labellers >= 2 && tested.length > 0;
  const note =
    labellers < 2
      ? "needs at least two labellers (three or more to mean much)"
      : tested.length === 0
        ? `no labeller has ${minRows} rows labelled with at least one other person and judged`
        : tested.length === 2 || labellers === 2
          ? "with two labellers the test only asks whether the judge sides with one person more than the other does; three or more give a consensus to compare against"
          : null;
  return {
    epsilon,
    q,
    scoring: options.scoring,
    labellers: results,
    tested: tested.length,
    winningRate,
    advantageProbability,
    passed: enough && winningRate !== null ? winningRate >= 0.5 : null,
    note,
  };
}

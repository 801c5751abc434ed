/**
 * Agreement of a score judge with people's scores on the same rows: Spearman's
 * rank correlation and the mean absolute difference. Pure functions of the
 * paired values (lib/db/labels/agreementQueries.ts reads them in pages).
 */
export type ScorePair = { judge: number; human: number };

export type SpearmanResult = { defined: true; rho: number } | { defined: false; reason: string };

export type ScoreAgreement = {
  pairs: number;
  spearman: SpearmanResult;
  /** Mean of |judge − human|; null when there are no pairs. */
  meanAbsoluteDifference: number | null;
};

/**
 * 1-based ranks with ties given the average of the ranks they span (the
 * "fractional" ranking Spearman's coefficient needs for tied values): for
 * [0.2, 0.5, 0.5, 0.9] the ranks are [1, 2.5, 2.5, 4].
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end += 1;
    // Positions start..end (0-based) hold ranks start+1..end+1; their mean:
    const rank = (start + end + 2) / 2;
    for (let k = start; k <= end; k++) ranks[order[k].index] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Spearman's ρ as the Pearson correlation of the average ranks, which is exact
 * with ties (the 1 − 6Σd²/(n(n²−1)) shortcut is not). Undefined, with a
 * reason, for fewer than two pairs or when one side gives every row the same
 * value (its ranks have no variance).
 */
export function spearmanCorrelation(pairs: readonly ScorePair[]): SpearmanResult {
  if (pairs.length < 2) return { defined: false, reason: "fewer than two labelled rows with a judge score" };
  const judgeRanks = averageRanks(pairs.map((pair) => pair.judge));
  const humanRanks = averageRanks(pairs.map((pair) => pair.human));
  const mean = (pairs.length + 1) / 2; // the mean of average ranks is always (n + 1) / 2
  let covariance = 0;
  let judgeVariance = 0;
  let humanVariance = 0;
  for (let i = 0; i < pairs.length; i++) {
    const dj = judgeRanks[i] - mean;
    const dh = humanRanks[i] - mean;
    covariance += dj * dh;
    judgeVariance += dj * dj;
    humanVariance += dh * dh;
  }
  if (judgeVariance === 0) return { defined: false, reason: "the judge gave every labelled row the same score" };
  if (humanVariance === 0) return { defined: false, reason: "the labels give every row the same score" };
  const rho = covariance / Math.sqrt(judgeVariance * humanVariance);
  return { defined: true, rho: Math.max(-1, Math.min(1, rho)) };
}

export function meanAbsoluteDifference(pairs: readonly ScorePair[]): number | null {
  if (pairs.length === 0) return null;
  let sum = 0;
  for (const pair of pairs) sum += Math.abs(pair.judge - pair.human);
  return sum / pairs.length;
}

export function summarizeScoreAgreement(pairs: readonly ScorePair[]): ScoreAgreement {
  return {
    pairs: pairs.length,
    spearman: spearmanCorrelation(pairs),
    meanAbsoluteDifference: meanAbsoluteDifference(pairs),
  };
}

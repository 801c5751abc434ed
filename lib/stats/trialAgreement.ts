import { wilsonIntervalOfRate } from "./wilson";
import { fleissKappa as fleissOfUnits } from "./fleissKappa";
/**
 * What repeated judgments of the same rows say (trials): how often a row passes at least once or every time,
 * and how far the judge agrees with itself. Pure functions over per-row counts, so the store can add the
 * counts up in SQL and hand over one small record per row.
 */

/** One row of one metric judged `trials` times, `passes` of them yes (or a score's pass). */
export type RowTrials = { passes: number; trials: number };

export type TrialSummary = {
  /** Rows with at least one finished trial. */
  rows: number;
  /** The mean over rows of each row's pass rate: the headline rate, with every row weighing the same. */
  meanPassRate: number;
  /** pass@k: the share of rows where at least one trial passed. */
  passAtK: number;
  /** pass^k: the share of rows where every trial passed. */
  passAllK: number;
  /** The share of rows whose trials all agree (all passed or all failed). */
  unanimous: number;
  /** Fleiss' κ across trials (null unless every row has the same number of trials, at least 2). */
  fleissKappa: number | null;
};

/**
 * Fleiss' κ for items each rated by the same number n of raters (Fleiss 1971): `counts[i][j]` is how many
 * of item i's n ratings fell in category j. P_i = (Σ_j n_ij² − n) / (n(n − 1)), p_j = Σ_i n_ij / (N n),
 * κ = (P̄ − Σ p_j²) / (1 − Σ p_j²). Null when it is undefined: fewer than 2 raters, no item, unequal numbers
 * of ratings, or every rating in one category (no chance agreement to beat, 1 − P̄_e = 0).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): number | null {
  if (counts.length === 0) return null;
  const categories = counts[0].length;
  for (const row of counts) {
    if (row.length !== categories) throw new RangeError("every item needs a count for every category");
    for (const count of row)
      if (!Number.isInteger(count) || count < 0)
        throw new RangeError(`counts must be non-negative integers, got ${count}`);
  }
  const sum = (row: readonly number[]) => row.reduce((total, count) => total + count, 0);
  if (counts.some((row) => sum(row) !== sum(counts[0]))) return null;
  // The same coefficient as people's agreement uses (fleissKappa.ts), from each item's ratings.
  const result = fleissOfUnits(
    counts.map((row) => ({ values: row.flatMap((count, category) => new Array<number>(count).fill(category)) })),
  );
  return result.defined ? result.kappa : null;
}

/** The trial summary of one metric over its rows (rows with no finished trial are left out). */
export function summarizeTrials(rows: readonly RowTrials[]): TrialSummary {
  return summarizeTrialGroups(rows.map((row) => ({ ...row, rows: 1 })));
}

/**
 * The same summary from rows grouped by their counts: `rows` rows each passed `passes` of `trials` (what the
 * store's GROUP BY hands over: a few groups, not one record per row). Fleiss' κ for two categories, each row
 * weighing as the number of rows it stands for.
 */
export function summarizeTrialGroups(groups: readonly (RowTrials & { rows: number })[]): TrialSummary {
  const judged = groups.filter((group) => group.trials > 0 && group.rows > 0);
  for (const { passes, trials, rows } of judged)
    if (!Number.isInteger(passes) || !Number.isInteger(trials) || passes < 0 || passes > trials || rows < 0)
      throw new RangeError(`passes must be an integer in [0, trials], got ${passes} of ${trials}`);
  const total = judged.reduce((sum, group) => sum + group.rows, 0);
  const share = (count: number) => (total === 0 ? 0 : count / total);
  const count = (keep: (group: RowTrials) => boolean) =>
    judged.reduce((sum, group) => sum + (keep(group) ? group.rows : 0), 0);
  const sameTrials = judged.length > 0 && judged.every((group) => group.trials === judged[0].trials);
  return {
    rows: total,
    meanPassRate: share(judged.reduce((sum, group) => sum + (group.rows * group.passes) / group.trials, 0)),
    passAtK: share(count((group) => group.passes > 0)),
    passAllK: share(count((group) => group.passes === group.trials)),
    unanimous: share(count((group) => group.passes === 0 || group.passes === group.trials)),
    fleissKappa: sameTrials ? binaryFleissKappa(judged, judged[0].trials) : null,
  };
}

/** Fleiss' κ over yes/no with `n` trials a row, from grouped rows (as fleissKappa over the expanded rows). */
function binaryFleissKappa(groups: readonly (RowTrials & { rows: number })[], n: number): number | null {
  if (n < 2) return null;
  let rows = 0;
  let agreement = 0;
  let passes = 0;
  for (const group of groups) {
    const fails = n - group.passes;
    rows += group.rows;
    agreement += (group.rows * (group.passes ** 2 + fails ** 2 - n)) / (n * (n - 1));
    passes += group.rows * group.passes;
  }
  const yes = passes / (rows * n);
  const expected = yes ** 2 + (1 - yes) ** 2;
  if (expected >= 1) return null;
  return (agreement / rows - expected) / (1 - expected);
}

/**
 * The (confidence) interval of the mean of the rows' pass rates, the row the unit: Wilson's interval taken at the
 * effective number of rows the spread of the rows' rates allows (n_eff = p(1 − p) / SE², SE the standard error
 * of the mean over rows). With one trial a row it is exactly Wilson's over the rows; with trials that agree
 * with each other it is about as wide as Wilson's over the rows, never as narrow as Wilson's over every trial
 * counted as a row of its own. Null for no rows.
 */
export function rowRateInterval(
  groups: readonly (RowTrials & { rows: number })[],
  confidence = 0.95,
): { low: number; high: number } | null {
  const judged = groups.filter((group) => group.trials > 0 && group.rows > 0);
  const rows = judged.reduce((sum, group) => sum + group.rows, 0);
  if (rows === 0) return null;
  const mean = judged.reduce((sum, group) => sum + (group.rows * group.passes) / group.trials, 0) / rows;
  if (rows === 1 || mean === 0 || mean === 1) return wilsonIntervalOfRate(mean, rows, confidence);
  // The plug-in variance (over rows, not rows − 1), as Wilson's own p(1 − p) / n: one trial a row gives n_eff = n.
  const variance =
    judged.reduce((sum, group) => sum + group.rows * (group.passes / group.trials - mean) ** 2, 0) / rows;
  const squaredError = variance / rows;
  // Rows whose rates do not vary at all (every row 2 of 3): the mean is as sure as all the rows can make it.
  const effective = squaredError === 0 ? rows : Math.max(1, (mean * (1 - mean)) / squaredError);
  return wilsonIntervalOfRate(mean, effective, confidence);
}

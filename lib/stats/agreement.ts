import { cohensKappaMatrix } from "./kappaMatrix";

/**
 * Agreement of a yes/no judge with people on the same rows. The counts come
 * from SQL (lib/db/labels/agreementQueries.ts); everything here is a pure function of
 * them, so every figure can be checked by hand (tests/stats/agreement.test.ts).
 *
 * Cells are named judge-first: yesNo = the judge said yes, the person said no.
 * Errors (and rows the run did not judge) are counted beside the matrix, never
 * as agreement or disagreement.
 */
export type ConfusionCounts = { yesYes: number; yesNo: number; noYes: number; noNo: number };

export type KappaResult =
  | {
      defined: true;
      kappa: number;
      low: number;
      high: number;
      standardError: number;
      /**
       * Why the interval says nothing, or null. The large-sample standard error is 0 when one
       * side used a single class or agreement is perfect, and "0.00 [0.00, 0.00]" would read
       * as certainty that a handful of rows cannot give.
       */
      intervalNote: string | null;
    }
  | { defined: false; reason: string };

export type AgreementSummary = {
  confusion: ConfusionCounts;
  /** Rows with a label and a judge verdict: the matrix's total. */
  labelled: number;
  /** Labelled rows where the judge errored: counted beside, never in the matrix. */
  errors: number;
  /** Share of the matrix on its diagonal; null when the matrix is empty. */
  rawAgreement: number | null;
  kappa: KappaResult;
};

export const KAPPA_INTERVAL_METHOD =
  "95 % Wald interval with the large-sample standard error of Fleiss, Cohen & Everitt (1969)";

/**
 * Cohen's κ = (po − pe) / (1 − pe) with a Wald interval κ ± z·SE, where SE is
 * the large-sample (non-null) standard error of Fleiss, Cohen & Everitt,
 * "Large sample standard errors of kappa and weighted kappa", Psychological
 * Bulletin 72(5), 1969, eq. 13 (also Fleiss, Levin & Paik, Statistical Methods
 * for Rates and Proportions, 3rd ed., eq. 18.15):
 *
 *   Var(κ) = [ Σi pii·(1 − (pi· + p·i)(1 − κ))²
 *              + (1 − κ)² Σi≠j pij·(p·i + pj·)²
 *              − (κ − pe(1 − κ))² ] / (n (1 − pe)²)
 *
 * Chosen over a bootstrap because it is a closed form of the four counts (the
 * run page computes it from one SQL row, no resampling) and is what R's
 * irr/psych and most texts report. It is approximate for small n; the
 * interval is clipped to [−1, 1].
 *
 * Undefined, with a reason instead of a number: no labelled rows; one labelled
 * row (a κ from one row says nothing, and its variance is 0); pe = 1, which
 * happens exactly when judge and people each used one and the same class on
 * every row (κ is 0/0 there).
 */
export function cohensKappa(counts: ConfusionCounts, confidence = 0.95): KappaResult {
  const { yesYes, yesNo, noYes, noNo } = counts;
  for (const value of [yesYes, yesNo, noYes, noNo]) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`counts must be non-negative integers`);
  }
  const n = yesYes + yesNo + noYes + noNo;
  if (n === 0) return { defined: false, reason: "no labelled rows with a judge verdict" };
  if (n === 1) return { defined: false, reason: "only one labelled row; κ needs at least two" };
  // p[i][j]: judge class i, human class j (0 = yes, 1 = no).
  const p = [
    [yesYes / n, yesNo / n],
    [noYes / n, noNo / n],
  ];
  const judge = [p[0][0] + p[0][1], p[1][0] + p[1][1]]; // pi·
  const human = [p[0][0] + p[1][0], p[0][1] + p[1][1]]; // p·j
  const pe = judge[0] * human[0] + judge[1] * human[1];
  if (pe >= 1 - 1e-12) {
    const only = judge[0] === 1 ? "yes" : "no";
    return {
      defined: false,
      reason: `the judge and the labels both say "${only}" on every labelled row: chance agreement is 1, so κ is 0/0`,
    };
  }
  // The same estimate and standard error over k categories (kappaMatrix.ts), here k = 2.
  const matrix = cohensKappaMatrix(
    [
      [yesYes, yesNo],
      [noYes, noNo],
    ],
    confidence,
  );
  if (!matrix.defined) return { defined: false, reason: matrix.reason };
  const { kappa, standardError, low, high } = matrix;
  return {
    defined: true,
    kappa,
    standardError,
    low,
    high,
    // Rounding leaves a true zero near 1e-8 (the variance is a difference of near-equal terms).
    intervalNote: standardError > 1e-6 ? null : degenerateIntervalNote(judge, human),
  };
}

function degenerateIntervalNote(judge: number[], human: number[]): string {
  if (judge[0] === 0 || judge[0] === 1)
    return `no interval: the judge said "${judge[0] === 1 ? "yes" : "no"}" on every labelled row`;
  if (human[0] === 0 || human[0] === 1) return `no interval: every label is "${human[0] === 1 ? "yes" : "no"}"`;
  return "no interval: the judge and the labels agree on every row, too few rows to bound κ this way";
}

/** The agreement figures for one judge from its confusion counts and error count. */
export function summarizeAgreement(confusion: ConfusionCounts, errors: number): AgreementSummary {
  const labelled = confusion.yesYes + confusion.yesNo + confusion.noYes + confusion.noNo;
  return {
    confusion,
    labelled,
    errors,
    rawAgreement: labelled === 0 ? null : (confusion.yesYes + confusion.noNo) / labelled,
    kappa: cohensKappa(confusion),
  };
}

/**
 * Turns a test result into a verdict and one sentence a non-statistician can
 * act on. "Likely noise" rather than "no difference": failing to reject says
 * the data cannot tell, not that the runs are equal.
 */

import { correctionName, type Correction } from "./multipleComparisons";

export type DeltaInput =
  /** Yes/no metric: delta in percentage points of the yes-rate (+8.0 = 8 points better); pValue from exactMcNemar. */
  | { kind: "binary"; pValue: number; delta: number }
  /**
   * Scored metric: delta in score units, with a (1 − alpha) interval for it and the p-value of the same method
   * (pairedBootstrapMeanDiff, pairedNormalMeanDiff), which is below alpha exactly when the interval excludes 0.
   */
  | { kind: "score"; low: number; high: number; delta: number; pValue?: number }
  /**
   * Yes/no metric judged over several trials: delta and interval in percentage points of the mean of the rows'
   * pass rates, with the paired bootstrap's p over rows (each row one observation, whatever its trials).
   */
  | { kind: "rate"; low: number; high: number; delta: number; pValue: number };

/**
 * A test read with others: its p-value adjusted for the `family` tests of the comparison (multipleComparisons.ts).
 * The verdict is then the adjusted p's, and the words say so.
 */
export type Adjustment = { pValue: number; family: number; correction: Correction };

export type Verdict = "better" | "worse" | "noise";

const MINUS = "\u2212"; // typographic minus: a hyphen reads as a dash in prose

/** The level every test uses unless a caller asks for another: 95% intervals. */
export const DEFAULT_ALPHA = 0.05;

export function describeDelta(
  input: DeltaInput,
  alpha = DEFAULT_ALPHA,
  adjustment?: Adjustment,
): { verdict: Verdict; words: string } {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!Number.isFinite(input.delta)) throw new RangeError(`delta must be finite, got ${input.delta}`);

  if (input.kind === "binary") {
    const { pValue, delta } = input;
    if (!(pValue >= 0 && pValue <= 1)) throw new RangeError(`pValue must be in [0, 1], got ${pValue}`);
    const verdict = verdictOf(delta, adjustment?.pValue ?? pValue, alpha);
    // Exactly no change in the yes-rate is not noise to be doubted: as many rows flipped each way, or none.
    if (delta === 0) return { verdict, words: `No net change: 0.0 points (p ${formatP(pValue)})` };
    const digits = verdict === "noise" ? 1 : digitsKeepingNonZero([delta], 1);
    const amount = `${signed(delta, digits, true)} points`;
    // The test is named only when it is the reason to believe the change.
    const test = verdict === "noise" ? "p" : "McNemar p";
    return {
      verdict,
      words: `${verdictLabel(verdict, adjustment)}: ${amount} (${test} ${formatP(pValue)}${adjustedClause(adjustment)})`,
    };
  }

  if (input.kind === "rate") {
    const { low, high, delta, pValue } = input;
    const verdict = verdictOf(delta, adjustment?.pValue ?? pValue, alpha);
    if (delta === 0 && low === 0 && high === 0) return { verdict, words: NO_CHANGE };
    const digits = verdict === "noise" ? 1 : digitsKeepingNonZero([low, high], 1);
    const ci = `${formatLevel(1 - alpha)}% CI ${signed(low, digits)} to ${signed(high, digits)}`;
    return {
      verdict,
      words: `${verdictLabel(verdict, adjustment)}: ${signed(delta, digits, true)} points (${ci}; p ${formatP(pValue)}${adjustedClause(adjustment)})`,
    };
  }

  const { low, high, delta } = input;
  if (!(Number.isFinite(low) && Number.isFinite(high) && low <= high)) {
    throw new RangeError(`interval must be finite with low ≤ high, got [${low}, ${high}]`);
  }
  const verdict = intervalVerdict({ low, high, delta }, adjustment, alpha);
  if (delta === 0 && low === 0 && high === 0) return { verdict, words: NO_CHANGE };
  // Two decimals read well on 0–1 and 1–5 scales; more only when a real result's
  // bound nearest zero would otherwise print as 0.00 and contradict the verdict.
  const digits = verdict === "noise" ? 2 : digitsKeepingNonZero([low, high], 2);
  const ci = `${formatLevel(1 - alpha)}% CI ${signed(low, digits)} to ${signed(high, digits)}`;
  const p = adjustment && input.pValue !== undefined ? `; p ${formatP(input.pValue)}${adjustedClause(adjustment)}` : "";
  return { verdict, words: `${verdictLabel(verdict, adjustment)}: ${signed(delta, digits, true)} (${ci}${p})` };
}

/** Strictly below alpha, the usual convention; a zero delta is never "real" whatever p says. */
function verdictOf(delta: number, pValue: number, alpha: number): Verdict {
  return pValue < alpha && delta !== 0 ? (delta > 0 ? "better" : "worse") : "noise";
}

/**
 * A score delta's verdict, higher being better: the adjusted p's when the delta is read with others, else its
 * interval's (real only when it excludes 0; touching it counts as noise), which its own p-value agrees with.
 */
export function intervalVerdict(
  { low, high, delta }: { low: number; high: number; delta: number },
  adjustment: Adjustment | undefined,
  alpha: number,
): Verdict {
  if (adjustment) return verdictOf(delta, adjustment.pValue, alpha);
  return low > 0 ? "better" : high < 0 ? "worse" : "noise";
}

/** "Real regression", or "Real regression after correcting for 14 metrics" when the verdict is the adjusted p's. */
export function verdictLabel(verdict: Verdict, adjustment?: Adjustment): string {
  const corrected = adjustment && adjustment.correction !== "none" && adjustment.family > 1;
  return corrected ? `${prefix(verdict)} after correcting for ${adjustment.family} metrics` : prefix(verdict);
}

/** ", Holm-adjusted p = 0.42" beside the raw p, when there is a correction to show. */
export function adjustedClause(adjustment?: Adjustment): string {
  if (!adjustment || adjustment.correction === "none" || adjustment.family <= 1) return "";
  return `, ${correctionName(adjustment.correction)}-adjusted p ${formatP(adjustment.pValue)}`;
}

/** Every paired row the same on both runs: the interval is the single point 0. */
export const NO_CHANGE = "No change: every paired row has the same value";

function prefix(verdict: Verdict): string {
  return verdict === "better" ? "Real improvement" : verdict === "worse" ? "Real regression" : "Likely noise";
}

function roundsToZero(value: number, digits: number): boolean {
  return Number(Math.abs(value).toFixed(digits)) === 0;
}

/** Fewest decimals, from `min` up to 6, at which none of the values prints as zero. */
function digitsKeepingNonZero(values: number[], min: number): number {
  let digits = min;
  while (digits < 6 && values.some((value) => roundsToZero(value, digits))) digits++;
  return digits;
}

/** Fixed decimals with a typographic minus; no sign at all when it rounds to zero ("−0.0" reads as a loss). */
function signed(value: number, digits: number, plus = false): string {
  const magnitude = Math.abs(value).toFixed(digits);
  if (roundsToZero(value, digits)) return magnitude;
  return value < 0 ? `${MINUS}${magnitude}` : plus ? `+${magnitude}` : magnitude;
}

/** "= 0.62", "= 0.049", "= 0.003", "< 0.001": two significant digits, three decimals at most (more is false precision). */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  if (p < 0.01) return `= ${p.toFixed(3)}`;
  return p >= 0.995 ? "= 1" : `= ${p.toPrecision(2)}`;
}

/** 0.95 → "95", 0.999 → "99.9" (toFixed trims the float noise of 1 − alpha). */
export function formatLevel(confidence: number): string {
  return String(Number((confidence * 100).toFixed(4)));
}

import { inverseRegularizedBeta } from "./specialFunctions";

/**
 * The paired difference in yes-rates (second minus first) over n rows judged in both, with the interval that
 * agrees with the exact McNemar test: it excludes 0 exactly when McNemar's p is below 1 − confidence.
 * `firstOnly` (b) counts rows yes in the first run and no in the second, `secondOnly` (c) the reverse.
 *
 * Why this interval. The exact McNemar test conditions on the b + c flipped rows: with no difference each flip
 * goes either way with probability 1/2, and its two-sided p doubles the smaller binomial tail. The interval
 * that inverts that same test is Clopper and Pearson's for θ, the share of flips that went the second run's
 * way (each bound is where one binomial tail equals (1 − confidence) / 2). The difference in yes-rates is
 * (b + c) / n · (2θ − 1), so the interval for θ, scaled by the observed share of flipped rows, bounds it.
 * An earlier version showed the Agresti–Min interval beside McNemar's verdict; the two disagree near the
 * edge ("Likely noise, p = 0.057" above "95% CI −13.8 to −0.1"). One rule now decides both.
 *
 * The interval conditions on the number of flipped rows, as the test does. With no row flipped the test's p
 * is 1 and the flips could have gone either way: the interval is ± the largest share of flipped rows that
 * seeing none in n is consistent with (Clopper–Pearson's upper bound, 1 − ((1 − confidence) / 2)^(1/n)),
 * not the point 0, which would read as a certainty six rows cannot give.
 */
export function mcNemarExactInterval(
  firstOnly: number,
  secondOnly: number,
  n: number,
  confidence = 0.95,
): { difference: number; low: number; high: number } | null {
  for (const [name, value] of [
    ["firstOnly", firstOnly],
    ["secondOnly", secondOnly],
    ["n", n],
  ] as const)
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  if (firstOnly + secondOnly > n)
    throw new RangeError(`flipped rows (${firstOnly} + ${secondOnly}) cannot exceed the paired rows (${n})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (n === 0) return null;
  const flips = firstOnly + secondOnly;
  const difference = (secondOnly - firstOnly) / n;
  const tail = (1 - confidence) / 2;
  if (flips === 0) {
    const largestShare = 1 - tail ** (1 / n);
    return { difference, low: -largestShare, high: largestShare };
  }
  // Clopper–Pearson for θ = secondOnly / flips: the lower bound is the Beta(c, b + 1) quantile at the tail,
  // the upper the Beta(c + 1, b) quantile at 1 − tail; 0 and 1 when the count sits at its edge.
  const thetaLow = secondOnly === 0 ? 0 : inverseRegularizedBeta(tail, secondOnly, firstOnly + 1);
  const thetaHigh = firstOnly === 0 ? 1 : inverseRegularizedBeta(1 - tail, secondOnly + 1, firstOnly);
  const share = flips / n;
  return { difference, low: share * (2 * thetaLow - 1), high: share * (2 * thetaHigh - 1) };
}

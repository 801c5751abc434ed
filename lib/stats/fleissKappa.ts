import type { CodedUnit, LabelValue } from "./krippendorffAlpha";

export type FleissResult =
  | { defined: true; kappa: number; observed: number; chance: number; raters: number; units: number }
  | { defined: false; reason: string; raters: number | null; units: number };

/**
 * Fleiss' κ (1971) for a fixed number n of raters per unit, nominal categories, no missing values:
 *
 *   p_j = Σ_i n_ij / (N n),  P_i = (Σ_j n_ij² − n) / (n (n − 1)),  κ = (P̄ − P̄_e) / (1 − P̄_e),  P̄_e = Σ_j p_j²
 *
 * Units carry the values their raters gave (and a weight, for grouped patterns). Undefined when units
 * have different numbers of raters (use Krippendorff's α, which handles gaps), fewer than two raters,
 * or everyone gave one category.
 */
export function fleissKappa(units: readonly CodedUnit[]): FleissResult {
  const rated = units.filter((unit) => unit.values.length > 0);
  const total = rated.reduce((s, unit) => s + (unit.weight ?? 1), 0);
  if (total === 0) return { defined: false, reason: "no labelled rows", raters: null, units: 0 };
  const raters = rated[0].values.length;
  if (rated.some((unit) => unit.values.length !== raters))
    return {
      defined: false,
      reason: "rows have different numbers of labellers; Krippendorff's α covers that",
      raters: null,
      units: total,
    };
  if (raters < 2) return { defined: false, reason: "one labeller per row", raters, units: total };
  const categoryTotals = new Map<string, number>();
  let agreementSum = 0;
  for (const unit of rated) {
    const weight = unit.weight ?? 1;
    const counts = new Map<string, number>();
    for (const value of unit.values) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
    let squares = 0;
    for (const [category, count] of counts) {
      squares += count * count;
      categoryTotals.set(category, (categoryTotals.get(category) ?? 0) + count * weight);
    }
    agreementSum += ((squares - raters) / (raters * (raters - 1))) * weight;
  }
  const observed = agreementSum / total;
  let chance = 0;
  for (const count of categoryTotals.values()) chance += (count / (total * raters)) ** 2;
  if (chance >= 1 - 1e-12)
    return { defined: false, reason: "everyone gave one and the same value", raters, units: total };
  return { defined: true, kappa: (observed - chance) / (1 - chance), observed, chance, raters, units: total };
}

const key = (value: LabelValue) => `${typeof value}:${value}`;

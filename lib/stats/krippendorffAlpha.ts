/**
 * Krippendorff's α for any number of coders with missing values (Krippendorff 2011, "Computing
 * Krippendorff's Alpha-Reliability"), at the four levels of measurement.
 *
 * Units are given as the values their coders gave (missing ones left out) with a weight: how many units
 * share exactly those values, so a store can hand over grouped label patterns instead of every row.
 * Units with fewer than two values are not pairable and count nowhere.
 *
 *   o_ck = Σ_u (ordered pairs (c, k) of values in u from different coders) / (m_u − 1)
 *   n_c = Σ_k o_ck,  n = Σ_c n_c
 *   α = 1 − D_o / D_e,  D_o = (1/n) Σ o_ck δ²_ck,  D_e = (1/(n(n−1))) Σ n_c n_k δ²_ck
 */
export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";
export const ALPHA_LEVELS: readonly AlphaLevel[] = ["nominal", "ordinal", "interval", "ratio"];

export type LabelValue = string | number;
export type CodedUnit = { values: readonly LabelValue[]; weight?: number };

/** The coincidence matrix over the distinct values present (sorted: numbers ascending, else as text). */
export type Coincidences = { values: LabelValue[]; o: number[][]; marginals: number[]; n: number; units: number };

export type AlphaResult =
  | { defined: true; alpha: number; observed: number; expected: number; pairable: number; units: number }
  | { defined: false; reason: string; pairable: number; units: number };

function compareValues(a: LabelValue, b: LabelValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The distinct values of the pairable units, in order. */
export function distinctValues(units: readonly CodedUnit[]): LabelValue[] {
  const seen = new Map<string, LabelValue>();
  for (const unit of units)
    if (unit.values.length >= 2) for (const value of unit.values) seen.set(`${typeof value}:${value}`, value);
  return [...seen.values()].sort(compareValues);
}

/** A unit's counts per value index: the building block of the coincidences and of both bootstraps. */
export function unitContribution(values: readonly LabelValue[], index: ReadonlyMap<string, number>): number[][] {
  const counts = new Map<number, number>();
  for (const value of values) {
    const i = index.get(`${typeof value}:${value}`);
    if (i === undefined) throw new Error(`value ${value} is not among the coincidences' values`);
    counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  const m = values.length;
  const cells: number[][] = [];
  for (const [c, nc] of counts)
    for (const [k, nk] of counts) {
      const pairs = c === k ? nc * (nc - 1) : nc * nk;
      if (pairs > 0) cells.push([c, k, pairs / (m - 1)]);
    }
  return cells;
}

export function valueIndex(values: readonly LabelValue[]): Map<string, number> {
  return new Map(values.map((value, i) => [`${typeof value}:${value}`, i]));
}

export function coincidences(units: readonly CodedUnit[]): Coincidences {
  const values = distinctValues(units);
  const index = valueIndex(values);
  const o = values.map(() => values.map(() => 0));
  let pairableUnits = 0;
  for (const unit of units) {
    if (unit.values.length < 2) continue;
    const weight = unit.weight ?? 1;
    pairableUnits += weight;
    for (const [c, k, v] of unitContribution(unit.values, index)) o[c][k] += v * weight;
  }
  const marginals = o.map((row) => row.reduce((s, v) => s + v, 0));
  return { values, o, marginals, n: marginals.reduce((s, v) => s + v, 0), units: pairableUnits };
}

/** δ²_ck for every pair of values at a level; ordinal ranks run over the values present, weighted by n_c. */
export function distanceMatrix(
  values: readonly LabelValue[],
  marginals: readonly number[],
  level: AlphaLevel,
): number[][] {
  const numeric = () =>
    values.map((value) => {
      const x = typeof value === "number" ? value : Number(value);
      if (!Number.isFinite(x)) throw new Error(`${level} α needs numbers; got "${value}"`);
      return x;
    });
  const size = values.length;
  const matrix = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const x = level === "nominal" ? [] : numeric();
  // Cumulative marginals, so an ordinal distance is one subtraction.
  const cumulative = [0];
  for (const m of marginals) cumulative.push(cumulative[cumulative.length - 1] + m);
  for (let c = 0; c < size; c++)
    for (let k = 0; k < size; k++) {
      if (c === k) continue;
      if (level === "nominal") matrix[c][k] = 1;
      else if (level === "interval") matrix[c][k] = (x[c] - x[k]) ** 2;
      else if (level === "ratio") matrix[c][k] = x[c] + x[k] === 0 ? 0 : ((x[c] - x[k]) / (x[c] + x[k])) ** 2;
      else {
        const [low, high] = c < k ? [c, k] : [k, c];
        const between = cumulative[high + 1] - cumulative[low];
        matrix[c][k] = (between - (marginals[c] + marginals[k]) / 2) ** 2;
      }
    }
  return matrix;
}

/** D_e per pairable value: what both bootstraps divide by. */
export function expectedDisagreement(
  marginals: readonly number[],
  delta: readonly (readonly number[])[],
  n: number,
): number {
  let sum = 0;
  for (let c = 0; c < marginals.length; c++)
    for (let k = 0; k < marginals.length; k++) sum += marginals[c] * marginals[k] * delta[c][k];
  return sum / (n * (n - 1));
}

export function alphaOfCoincidences(co: Coincidences, level: AlphaLevel): AlphaResult {
  const { o, marginals, n, units } = co;
  if (units === 0 || n < 2) return { defined: false, reason: "no row has two people's labels", pairable: n, units };
  const delta = distanceMatrix(co.values, marginals, level);
  let observedSum = 0;
  for (let c = 0; c < o.length; c++) for (let k = 0; k < o.length; k++) observedSum += o[c][k] * delta[c][k];
  const observed = observedSum / n;
  const expected = expectedDisagreement(marginals, delta, n);
  if (expected <= 1e-15)
    return { defined: false, reason: "everyone gave one and the same value throughout", pairable: n, units };
  return { defined: true, alpha: 1 - observed / expected, observed, expected, pairable: n, units };
}

export function krippendorffAlpha(units: readonly CodedUnit[], level: AlphaLevel): AlphaResult {
  return alphaOfCoincidences(coincidences(units), level);
}

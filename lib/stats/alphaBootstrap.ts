import {
  alphaOfCoincidences,
  coincidences,
  distanceMatrix,
  expectedDisagreement,
  unitContribution,
  valueIndex,
  type AlphaLevel,
  type CodedUnit,
  type Coincidences,
} from "./krippendorffAlpha";
import { mulberry32 } from "./prng";

/** A 95 % (or other) interval of α, with how it was drawn. */
export type AlphaInterval = { low: number; high: number; resamples: number };

const DEFAULT_SEED = 0xa1fa;

/**
 * Krippendorff's own bootstrap (the 2011 note "Algorithm for bootstrapping a distribution of α", as
 * transcribed in the R package kripp.boot): resample M pairs of values from the coincidence matrix,
 * M = min(25·Q, (m−1)·n/2) with Q the non-zero cells and m the number of coders; α* = 1 − Σδ²/(M·D_e),
 * clamped at −1; up to round(X·Σ_c (o_cc/n)^M) of the α* = 1 are set to 0 (resamples that could not
 * vary). Its critics (Gwet 2015; Hughes 2022) find it too narrow, which is why the units bootstrap below
 * is shown beside it.
 */
export function krippendorffBootstrap(
  co: Coincidences,
  level: AlphaLevel,
  coders: number,
  options: { resamples?: number; confidence?: number; seed?: number } = {},
): AlphaInterval | null {
  const resamples = options.resamples ?? 2000;
  const confidence = options.confidence ?? 0.95;
  const { o, marginals, n, values } = co;
  if (n < 2) return null;
  const delta = distanceMatrix(values, marginals, level);
  const expected = expectedDisagreement(marginals, delta, n);
  if (expected <= 1e-15) return null;
  const cells: { p: number; d: number }[] = [];
  let nonZero = 0;
  for (let c = 0; c < o.length; c++)
    for (let k = 0; k < o.length; k++) {
      if (o[c][k] > 0) nonZero += 1;
      if (k < c) continue;
      const p = c === k ? o[c][c] / n : (2 * o[c][k]) / n;
      if (p > 0) cells.push({ p, d: delta[c][k] });
    }
  const draws = Math.max(1, Math.floor(Math.min(25 * nonZero, ((coders - 1) * n) / 2)));
  const cumulative: number[] = [];
  let running = 0;
  for (const cell of cells) cumulative.push((running += cell.p));
  const random = mulberry32(options.seed ?? DEFAULT_SEED);
  const alphas: number[] = [];
  for (let x = 0; x < resamples; x++) {
    let sum = 0;
    for (let i = 0; i < draws; i++) sum += cells[pick(cumulative, random() * running)].d;
    alphas.push(Math.max(-1, 1 - sum / (draws * expected)));
  }
  // Resamples that could only agree perfectly: as many as expected go to 0 instead of 1.
  let indeterminate = Math.round(resamples * o.reduce((s, row, c) => s + (row[c] / n) ** draws, 0));
  for (let i = 0; i < alphas.length && indeterminate > 0; i++)
    if (alphas[i] === 1) {
      alphas[i] = 0;
      indeterminate -= 1;
    }
  alphas.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  const lowIndex = Math.max(Math.floor(tail * resamples), 1) - 1;
  const highIndex = Math.min(Math.floor((1 - tail) * resamples) + 1, resamples) - 1;
  return { low: alphas[lowIndex], high: alphas[highIndex], resamples };
}

/** The first index whose cumulative weight passes `target` (binary search). */
function pick(cumulative: readonly number[], target: number): number {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cumulative[mid] > target) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Work bound for the units bootstrap: resamples × distinct patterns. */
const WORK_LIMIT = 20_000_000;

/**
 * The units bootstrap: rows resampled with replacement (each resample draws as many pairable rows as there
 * are, through binomial splits over the distinct label patterns, so 100,000 rows with a handful of patterns
 * cost no more than 100), α recomputed in full, percentile interval. The number of resamples shrinks when
 * the patterns are many (continuous scores) so the work stays bounded; the result says how many it drew.
 */
export function unitsBootstrap(
  units: readonly CodedUnit[],
  level: AlphaLevel,
  options: { resamples?: number; confidence?: number; seed?: number } = {},
): AlphaInterval | null {
  const pairable = units.filter((unit) => unit.values.length >= 2 && (unit.weight ?? 1) > 0);
  const observed = coincidences(pairable);
  if (pairable.length === 0 || !alphaOfCoincidences(observed, level).defined) return null;
  const resamples = Math.max(
    200,
    Math.min(options.resamples ?? 2000, Math.floor(WORK_LIMIT / Math.max(1, pairable.length))),
  );
  const confidence = options.confidence ?? 0.95;
  const index = valueIndex(observed.values);
  const contributions = pairable.map((unit) => unitContribution(unit.values, index));
  const weights = pairable.map((unit) => unit.weight ?? 1);
  const total = weights.reduce((s, w) => s + w, 0);
  const random = mulberry32(options.seed ?? DEFAULT_SEED);
  const size = observed.values.length;
  const alphas: number[] = [];
  for (let x = 0; x < resamples; x++) {
    const o = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    let remaining = total;
    let remainingWeight = total;
    for (let u = 0; u < pairable.length && remaining > 0; u++) {
      const count = u === pairable.length - 1 ? remaining : binomial(remaining, weights[u] / remainingWeight, random);
      remaining -= count;
      remainingWeight -= weights[u];
      if (count > 0) for (const [c, k, v] of contributions[u]) o[c][k] += v * count;
    }
    const marginals = o.map((row) => row.reduce((s, v) => s + v, 0));
    const result = alphaOfCoincidences(
      { values: observed.values, o, marginals, n: marginals.reduce((s, v) => s + v, 0), units: total },
      level,
    );
    // A resample where everyone agreed on one value has no α; as the observed data varies, it counts as 1.
    alphas.push(result.defined ? result.alpha : 1);
  }
  alphas.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  const at = (q: number) => alphas[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))];
  return { low: at(tail), high: at(1 - tail), resamples };
}

/**
 * One Binomial(n, p) draw: exact by counting for small n, by waiting times when successes are rare, else
 * the normal approximation (its error at n·p·(1−p) ≥ 25 is far below the bootstrap's own noise).
 */
export function binomial(n: number, p: number, random: () => number): number {
  if (p <= 0 || n <= 0) return 0;
  if (p >= 1) return n;
  if (n < 40) {
    let successes = 0;
    for (let i = 0; i < n; i++) if (random() < p) successes += 1;
    return successes;
  }
  const flip = p > 0.5;
  const q = flip ? 1 - p : p;
  let draw: number;
  if (n * q < 25) {
    // Geometric waiting times between successes.
    const log = Math.log(1 - q);
    draw = 0;
    let position = 0;
    for (;;) {
      position += Math.floor(Math.log(1 - random()) / log) + 1;
      if (position > n) break;
      draw += 1;
    }
  } else {
    const u1 = 1 - random();
    const u2 = random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    draw = Math.min(n, Math.max(0, Math.round(n * q + z * Math.sqrt(n * q * (1 - q)))));
  }
  return flip ? n - draw : draw;
}

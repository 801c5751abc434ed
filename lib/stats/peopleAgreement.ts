import { krippendorffBootstrap, unitsBootstrap, type AlphaInterval } from "./alphaBootstrap";
import { fleissKappa, type FleissResult } from "./fleissKappa";
import {
  ALPHA_LEVELS,
  alphaOfCoincidences,
  coincidences,
  type AlphaLevel,
  type AlphaResult,
  type CodedUnit,
  type LabelValue,
} from "./krippendorffAlpha";

/**
 * Rows grouped by what each labeller gave: `values[i]` is labeller i's value (null: no label), and
 * `count` how many rows share the pattern. The store returns these from one GROUP BY, so agreement
 * between people costs as much for 100,000 rows as for 100 when the answers are yes/no.
 */
export type LabelPattern = { values: readonly (LabelValue | null)[]; count: number };

export type LabellerPair = {
  a: number;
  b: number;
  /** Rows both labelled. */
  rows: number;
  /** Share of those rows where both gave the same value. */
  agreement: number | null;
  /** α of the two alone, at the metric's level. */
  alpha: AlphaResult;
};

export type PeopleAgreement = {
  level: AlphaLevel;
  /** α at the level that fits the label, with both intervals. */
  alpha: AlphaResult;
  /** α at every level a numeric label allows (scores); only nominal for yes/no. */
  byLevel: Partial<Record<AlphaLevel, AlphaResult>>;
  krippendorffInterval: AlphaInterval | null;
  unitsInterval: AlphaInterval | null;
  fleiss: FleissResult;
  /** Rows with at least one label, rows with two or more (what α rests on), and labels in all. */
  rows: number;
  pairableRows: number;
  labels: number;
  /** Labels per labeller, in the labellers' order. */
  perLabeller: number[];
  pairs: LabellerPair[];
};

export function unitsOfPatterns(patterns: readonly LabelPattern[], coders?: readonly number[]): CodedUnit[] {
  return patterns.map((pattern) => ({
    values: (coders ?? pattern.values.map((_, i) => i))
      .map((i) => pattern.values[i])
      .filter((value): value is LabelValue => value !== null),
    weight: pattern.count,
  }));
}

/** Agreement between the labellers of one metric, from their grouped label patterns. */
export function peopleAgreement(
  patterns: readonly LabelPattern[],
  labellers: number,
  level: AlphaLevel,
  options: { resamples?: number; seed?: number } = {},
): PeopleAgreement {
  const units = unitsOfPatterns(patterns);
  const co = coincidences(units);
  const alpha = alphaOfCoincidences(co, level);
  const levels = level === "nominal" ? (["nominal"] as const) : ALPHA_LEVELS;
  const byLevel: Partial<Record<AlphaLevel, AlphaResult>> = {};
  for (const each of levels) byLevel[each] = alphaOfCoincidences(co, each);
  const perLabeller = new Array<number>(labellers).fill(0);
  let rows = 0;
  let pairableRows = 0;
  for (const pattern of patterns) {
    const given = pattern.values.filter((value) => value !== null).length;
    if (given > 0) rows += pattern.count;
    if (given > 1) pairableRows += pattern.count;
    pattern.values.forEach((value, i) => {
      if (value !== null) perLabeller[i] += pattern.count;
    });
  }
  const pairs: LabellerPair[] = [];
  for (let a = 0; a < labellers; a++)
    for (let b = a + 1; b < labellers; b++) {
      let both = 0;
      let same = 0;
      for (const { values, count } of patterns) {
        if (values[a] === null || values[b] === null) continue;
        both += count;
        if (values[a] === values[b]) same += count;
      }
      if (both === 0) continue;
      pairs.push({
        a,
        b,
        rows: both,
        agreement: same / both,
        alpha: alphaOfCoincidences(coincidences(unitsOfPatterns(patterns, [a, b])), level),
      });
    }
  return {
    level,
    alpha,
    byLevel,
    krippendorffInterval: alpha.defined ? krippendorffBootstrap(co, level, labellers, options) : null,
    unitsInterval: alpha.defined ? unitsBootstrap(units, level, options) : null,
    fleiss: fleissKappa(units),
    rows,
    pairableRows,
    labels: perLabeller.reduce((s, v) => s + v, 0),
    perLabeller,
    pairs,
  };
}

import { createHash } from "node:crypto";

/**
 * The split of a judge's labelled rows into a training part (where an aligned version's examples and
 * guidance come from) and a held-out part (where it is measured), stratified by label so both parts
 * hold both answers in the same proportion, and seeded so the same labels and seed give the same split
 * on any machine. Rows an earlier alignment of the same judge held out stay held out: its figure was
 * measured on them, and a later version that learned from them would make that figure look better than
 * it is.
 */
export type LabelledUnit = {
  /** The row (and chunk, for a per-chunk judge) the label belongs to, e.g. "row-uuid" or "row-uuid#2". */
  key: string;
  label: "yes" | "no";
};

export type TrainHeldOutSplit<T extends LabelledUnit> = {
  seed: string;
  training: T[];
  heldOut: T[];
};

export const DEFAULT_HELD_OUT_SHARE = 0.4;

/** A unit's place in the seeded order: sha256 of the seed and its key, so no unit's place depends on the others. */
function rank(seed: string, key: string): string {
  return createHash("sha256").update(`${seed}\u0000${key}`).digest("hex");
}

export function splitLabelledUnits<T extends LabelledUnit>(
  units: readonly T[],
  options: { seed: string; heldOutShare?: number; alwaysHeldOut?: ReadonlySet<string> },
): TrainHeldOutSplit<T> {
  const share = options.heldOutShare ?? DEFAULT_HELD_OUT_SHARE;
  if (!(share > 0 && share < 1)) throw new RangeError("the held-out share must be between 0 and 1");
  const reserved = options.alwaysHeldOut ?? new Set<string>();
  const training: T[] = [];
  const heldOut: T[] = [];
  for (const label of ["yes", "no"] as const) {
    const stratum = units
      .filter((unit) => unit.label === label)
      .map((unit) => ({ unit, rank: rank(options.seed, unit.key) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
      .map(({ unit }) => unit);
    const kept = stratum.filter((unit) => reserved.has(unit.key));
    const open = stratum.filter((unit) => !reserved.has(unit.key));
    // Each label's share of the held-out part, counting the rows already held out; at least one when there are two.
    const target = Math.max(stratum.length >= 2 ? 1 : 0, Math.round(stratum.length * share));
    const more = Math.max(0, Math.min(open.length, target - kept.length));
    heldOut.push(...kept, ...open.slice(0, more));
    training.push(...open.slice(more));
  }
  return { seed: options.seed, training, heldOut };
}

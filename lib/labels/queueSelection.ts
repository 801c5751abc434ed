import { mulberry32 } from "@/lib/stats";

/**
 * Which rows a reviewer labels next. Rows are stratified by the judge's
 * verdict in the run (yes / no; for score judges pass / fail), and the target
 * is split evenly between the strata, so a judge that says "yes" 95 % of the
 * time still gets its "no"s checked: with a target of 40, 20 "no"s are
 * labelled even if they are 5 % of the run. A stratum smaller than its share
 * gives the rest to the other. Within a stratum rows come in a seeded
 * pseudo-random order that depends only on (seed, row, chunk), so the queue
 * is the same on every visit and labelling one row never reshuffles the rest.
 *
 * Pure and bounded: units are fed one page at a time and only the `target`
 * smallest keys per stratum are kept.
 */
export type Verdict = "yes" | "no";
export const STRATA: readonly Verdict[] = ["no", "yes"];

export type QueueUnit = {
  rowId: string;
  rowNumber: number;
  /** -1 for a whole-row label; the chunk's position for a per-chunk metric. */
  chunkPosition: number;
  verdict: Verdict;
  labelled: boolean;
  /** The request's first line, for the reviewer to recognise the row (plain text, truncated). */
  requestLine?: string;
  /** Its label was given on another response than this run judged: left out of the queue, counted apart. */
  elsewhere?: boolean;
  /** People's labels of the unit (several labels per row asked for), whether the viewer gave one, and whether
   * someone else holds its last slot: a unit is done at `labelsPerRow` labels, and offered to a viewer only
   * while it is neither theirs nor held by another. */
  labels?: number;
  mine?: boolean;
  reserved?: boolean;
};

export type StratumProgress = {
  verdict: Verdict;
  /** Units the run judged with this verdict. */
  available: number;
  /** Of those, already labelled. */
  labelled: number;
  /** This stratum's share of the target. */
  allocated: number;
};

export type LabellingQueue = {
  /** The next units to label, strata interleaved in proportion to what each still needs. */
  next: QueueUnit[];
  /** Labelled units counted toward the target (at most the allocation per stratum). */
  labelled: number;
  /** The target, lowered to what the run offers when it has fewer units. */
  target: number;
  requestedTarget: number;
  strata: StratumProgress[];
  /** Units whose label was given on another response than this run judged: neither offered nor counted. */
  otherResponse: number;
  /** Labels asked for per unit, units the viewer labelled, and units held by another labeller for their last slot. */
  labelsPerRow: number;
  yours: number;
  held: number;
};

/** A number in [0, 1) fixed by (seed, row, chunk): the unit's place in its stratum's order. */
export function queueKey(seed: number, rowNumber: number, chunkPosition: number): number {
  const mixed =
    Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(rowNumber, 0x85ebca6b) ^ Math.imul(chunkPosition + 2, 0xc2b2ae35);
  return mulberry32(mixed)();
}

/**
 * Splits a target evenly between strata, the smaller first (it takes the odd
 * one), none given more than it has; what a small stratum cannot take goes to
 * the other.
 */
export function allocateTarget(target: number, available: Record<Verdict, number>): Record<Verdict, number> {
  const allocation: Record<Verdict, number> = { no: 0, yes: 0 };
  const order = [...STRATA].sort((a, b) => available[a] - available[b]);
  let remaining = Math.max(0, Math.floor(target));
  order.forEach((verdict, index) => {
    const share = Math.ceil(remaining / (order.length - index));
    allocation[verdict] = Math.min(available[verdict], share);
    remaining -= allocation[verdict];
  });
  return allocation;
}

type Kept = { key: number; unit: QueueUnit };

export function createQueueSelection(options: { seed: number; target: number; labelsPerRow?: number }) {
  const target = Math.max(0, Math.floor(options.target));
  const labelsPerRow = Math.max(1, Math.floor(options.labelsPerRow ?? 1));
  let yours = 0;
  let held = 0;
  const available: Record<Verdict, number> = { no: 0, yes: 0 };
  const labelled: Record<Verdict, number> = { no: 0, yes: 0 };
  const kept: Record<Verdict, Kept[]> = { no: [], yes: [] };
  let otherResponse = 0;

  function keep(verdict: Verdict, entry: Kept) {
    const list = kept[verdict];
    if (list.length >= target && (target === 0 || entry.key >= list[list.length - 1].key)) return;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (list[middle].key < entry.key) low = middle + 1;
      else high = middle;
    }
    list.splice(low, 0, entry);
    if (list.length > target) list.pop();
  }

  return {
    add(unit: QueueUnit) {
      // Labelling it again here would replace the label on the response it was given on, so it is not offered.
      if (unit.elsewhere) {
        otherResponse += 1;
        return;
      }
      available[unit.verdict] += 1;
      if (unit.mine) yours += 1;
      // One label per row: a gold label means done, as before several people could label.
      const done = labelsPerRow > 1 ? (unit.labels ?? 0) >= labelsPerRow : unit.labelled;
      if (done) labelled[unit.verdict] += 1;
      else if (unit.reserved) held += 1;
      else if (!unit.mine)
        keep(unit.verdict, { key: queueKey(options.seed, unit.rowNumber, unit.chunkPosition), unit });
    },
    finish(): LabellingQueue {
      const allocation = allocateTarget(target, available);
      const picks = STRATA.map((verdict) => {
        const need = Math.max(0, allocation[verdict] - labelled[verdict]);
        return kept[verdict].slice(0, need).map((entry, index) => ({ unit: entry.unit, at: (index + 0.5) / need }));
      });
      const next = picks
        .flat()
        .sort((a, b) => a.at - b.at || a.unit.rowNumber - b.unit.rowNumber)
        .map((pick) => pick.unit);
      return {
        next,
        labelled: STRATA.reduce((sum, verdict) => sum + Math.min(labelled[verdict], allocation[verdict]), 0),
        target: allocation.no + allocation.yes,
        requestedTarget: target,
        strata: STRATA.map((verdict) => ({
          verdict,
          available: available[verdict],
          labelled: labelled[verdict],
          allocated: allocation[verdict],
        })),
        otherResponse,
        labelsPerRow,
        yours,
        held,
      };
    },
  };
}

import { formatInteger } from "@/lib/charts/format";
import type { RowPairingCounts } from "@/lib/db/judgments/rowPairing";

const rows = (count: number) => `${formatInteger(count)} ${count === 1 ? "row" : "rows"}`;

/**
 * How a run on another dataset paired its rows with the baseline's, in one sentence: what the compare page,
 * the CLI's gate and its summary say, so that a delta over 4 paired rows of 6 is not read as over all 6.
 */
export function describeRowPairing(counts: RowPairingCounts): string {
  const { paired, onlyBaseline, onlyCandidate, sameIdDifferentRequest } = counts;
  const apart = [
    onlyBaseline > 0 ? `${rows(onlyBaseline)} only in the baseline` : null,
    onlyCandidate > 0 ? `${rows(onlyCandidate)} only in this run` : null,
    sameIdDifferentRequest > 0
      ? `${rows(sameIdDifferentRequest)} with the same request_id but another request (not paired)`
      : null,
  ].filter((part) => part !== null);
  if (paired === 0)
    return `No row paired by request_id and request: compared on aggregates only${apart.length > 0 ? ` (${apart.join(", ")})` : ""}.`;
  if (apart.length === 0) return `All ${rows(paired)} paired by request_id and request.`;
  return `${rows(paired)} paired by request_id and request; ${apart.join(", ")}. Deltas, tests and flipped rows are on the paired rows.`;
}

/** Whether a pairing left rows out: the compare page then words it as a caution. */
export function pairingLeftRowsOut(counts: RowPairingCounts): boolean {
  return counts.onlyBaseline + counts.onlyCandidate + counts.sameIdDifferentRequest > 0 || counts.paired === 0;
}

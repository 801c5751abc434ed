import { pairVerdict, type PairWinner } from "@/lib/contract/pairwise";
import type { Db } from "@/lib/db/client";
import type { StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import type { StoredPreference } from "@/lib/db/pairwise/pairwisePreferences";
import { listVerdictsAfterRow, type ExportedVerdict } from "@/lib/db/pairwise/pairwiseVerdicts";
import { csvLine } from "./csv";

export const PAIRWISE_COLUMNS = [
  "request_id",
  "row_number",
  "criterion",
  "orders",
  "verdict_a_first",
  "verdict_b_first",
  "pair_verdict",
  "position_dependent",
  "rationale_a_first",
  "rationale_b_first",
  "people_verdicts",
] as const;

const WORDS: Record<PairWinner, string> = { a: "A", b: "B", tie: "tie" };
const PAGE_ROWS = 500;

/**
 * A pairwise comparison as CSV, one line per pair and criterion: each order's verdict and rationale, the pair's
 * verdict by MT-Bench's rule, and people's verdicts on the same two responses ("labeller:A; labeller:tie").
 * Streamed a page of rows at a time.
 */
export async function* pairwiseCsv(
  db: Db,
  comparison: StoredPairwiseComparison,
  preferences: StoredPreference[],
): AsyncGenerator<string> {
  yield csvLine([...PAIRWISE_COLUMNS]);
  const people = new Map<string, string[]>();
  for (const p of preferences)
    people.set(p.baselineRowId, [...(people.get(p.baselineRowId) ?? []), `${p.labelledBy}:${WORDS[p.choice]}`]);
  let after = -1;
  for (;;) {
    const page = await listVerdictsAfterRow(db, comparison.id, after, PAGE_ROWS);
    if (page.length === 0) return;
    const groups = new Map<string, ExportedVerdict[]>();
    for (const v of page)
      groups.set(`${v.rowNumber}\u0000${v.criterion}`, [
        ...(groups.get(`${v.rowNumber}\u0000${v.criterion}`) ?? []),
        v,
      ]);
    for (const verdicts of groups.values()) {
      const ab = verdicts.find((v) => v.shownOrder === "ab");
      const ba = verdicts.find((v) => v.shownOrder === "ba");
      const winnerOf = (v: ExportedVerdict | undefined) => (v?.status === "done" ? v.winner : null);
      const decided = [winnerOf(ab), winnerOf(ba)].filter((w): w is PairWinner => w !== null);
      const expected = comparison.orders === "both" ? 2 : 1;
      const pair = decided.length === expected ? pairVerdict(decided[0], decided[1]) : null;
      const first = verdicts[0];
      yield csvLine([
        first.requestId,
        first.rowNumber,
        first.criterion,
        comparison.orders,
        ab ? (winnerOf(ab) ? WORDS[winnerOf(ab) as PairWinner] : ab.status) : "",
        ba ? (winnerOf(ba) ? WORDS[winnerOf(ba) as PairWinner] : ba.status) : "",
        pair ? WORDS[pair.winner] : "",
        pair ? pair.positionDependent : "",
        ab?.rationale ?? ab?.errorMessage ?? "",
        ba?.rationale ?? ba?.errorMessage ?? "",
        (people.get(first.baselineRowId) ?? []).join("; "),
      ]);
    }
    after = page[page.length - 1].rowNumber;
  }
}

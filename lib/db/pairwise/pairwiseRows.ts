import type { PairwiseOrders } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { readOfCompletedComparison, type ComparisonState } from "./completedComparisonReads";

/** A pair the judge decided one way: B lost (A better) or B won, as the flip list shows it. */
export type DecidedPair = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  /** The pair's verdict: a (B lost) or b (B won). */
  winner: "a" | "b";
};

type Comparison = ComparisonState & { orders: PairwiseOrders };
type Direction = "regressions" | "improvements" | undefined;

/** The decided pairs of a criterion in the list's order: B's losses, then its wins, each in row order. */
type DecidedOrder = { losses: string[]; wins: string[] };

/**
 * Every decided pair's baseline row, in the list's order, in one read: in both-order mode the pairs given the
 * same winner in both orders (the others are ties), in one-order mode the pairs its one judgment gave a winner.
 * Kept for a completed comparison (completedComparisonReads.ts), so paging and stepping through the list read
 * only the page's rows: at 100,000 pairs the list's order costs one read, not a sort per request.
 */
function decidedOrder(db: Db, comparison: Comparison, criterion: string): Promise<DecidedOrder> {
  return readOfCompletedComparison(db, `decided-pairs|${criterion}`, comparison, async () => {
    // One GROUP BY over the criterion's verdicts, each pair's orders side by side (no join of the table with
    // itself, which PostgreSQL without statistics planned as a nested loop over every pair of verdicts).
    const pairs = await sqlOf(db).all<{ rowId: string; rowNumber: number; ab: string | null; ba: string | null }>(
      `SELECT "baselineRowId" AS "rowId", MIN("rowNumber") AS "rowNumber",
         MAX(CASE WHEN "shownOrder" = 'ab' THEN "winner" END) AS "ab",
         MAX(CASE WHEN "shownOrder" = 'ba' THEN "winner" END) AS "ba"
       FROM "PairwiseVerdict" WHERE "comparisonId" = ? AND "criterion" = ? AND "status" = 'done'
       GROUP BY "baselineRowId"`,
      [comparison.id, criterion],
    );
    const decided = pairs
      .map((pair) => ({
        rowId: pair.rowId,
        rowNumber: Number(pair.rowNumber),
        winner: comparison.orders === "both" ? (pair.ab === pair.ba ? pair.ab : null) : (pair.ab ?? pair.ba),
      }))
      .filter((pair) => pair.winner === "a" || pair.winner === "b")
      .sort((x, y) => x.rowNumber - y.rowNumber);
    return {
      losses: decided.filter((pair) => pair.winner === "a").map((pair) => pair.rowId),
      wins: decided.filter((pair) => pair.winner === "b").map((pair) => pair.rowId),
    };
  });
}

function listOf(order: DecidedOrder, direction: Direction): { rowId: string; winner: "a" | "b" }[] {
  const losses = direction === "improvements" ? [] : order.losses.map((rowId) => ({ rowId, winner: "a" as const }));
  const wins = direction === "regressions" ? [] : order.wins.map((rowId) => ({ rowId, winner: "b" as const }));
  return [...losses, ...wins];
}

/** The pairs of a criterion the judge decided, B's losses first, then in row order, a page at a time. */
export async function listDecidedPairs(
  db: Db,
  comparison: Comparison,
  criterion: string,
  options: { direction?: Direction; offset: number; limit: number },
): Promise<{ items: DecidedPair[]; total: number }> {
  const list = listOf(await decidedOrder(db, comparison, criterion), options.direction);
  const page = list.slice(options.offset, options.offset + options.limit);
  if (page.length === 0) return { items: [], total: list.length };
  const sql = sqlOf(db);
  const rows = await sql.all<Omit<DecidedPair, "winner">>(
    `SELECT "id" AS "rowId", "rowNumber", "requestId", "requestText" FROM "DatasetRow" WHERE ${sqlFragments(sql).inList(`"id"`)}`,
    [page.map((pair) => pair.rowId)],
  );
  const byId = new Map(rows.map((row) => [row.rowId, row]));
  return {
    total: list.length,
    items: page.flatMap((pair) => {
      const row = byId.get(pair.rowId);
      return row ? [{ ...row, rowNumber: Number(row.rowNumber), winner: pair.winner }] : [];
    }),
  };
}

/** Where a pair stands in its decided-pairs list (B's losses first, then row order), and its neighbours there. */
export type DecidedPairPlace = {
  position: number | null;
  total: number;
  previous: string | null;
  next: string | null;
  /** The next pair B lost after this one, from the first again after the last. */
  nextLoss: string | null;
};

/** The side-by-side page's place in a list of decided pairs (listDecidedPairs' order), and its neighbours. */
export async function getDecidedPairPlace(
  db: Db,
  comparison: Comparison,
  criterion: string,
  direction: Direction,
  rowId: string,
): Promise<DecidedPairPlace> {
  const list = listOf(await decidedOrder(db, comparison, criterion), direction);
  const index = list.findIndex((pair) => pair.rowId === rowId);
  const firstLoss = list.find((pair) => pair.winner === "a")?.rowId ?? null;
  if (index < 0)
    return { position: null, total: list.length, previous: null, next: list[0]?.rowId ?? null, nextLoss: firstLoss };
  const laterLoss = list.slice(index + 1).find((pair) => pair.winner === "a")?.rowId ?? firstLoss;
  return {
    position: index + 1,
    total: list.length,
    previous: list[index - 1]?.rowId ?? null,
    next: list[index + 1]?.rowId ?? null,
    nextLoss: laterLoss === rowId ? null : laterLoss,
  };
}

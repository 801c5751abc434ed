import type { PairwiseOrders } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";

/** A pair the judge decided one way: B lost (A better) or B won, as the flip list shows it. */
export type DecidedPair = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  /** The pair's verdict: a (B lost) or b (B won). */
  winner: "a" | "b";
};

/**
 * The pairs of a criterion the judge decided, B's losses first, then in row order, a page at a time: in
 * both-order mode the pairs given the same winner in both orders (the others are ties), in one-order mode the
 * pairs its one judgment gave a winner. `direction` keeps one side only.
 */
export async function listDecidedPairs(
  db: Db,
  comparison: { id: string; orders: PairwiseOrders },
  criterion: string,
  options: { direction?: "regressions" | "improvements"; offset: number; limit: number },
): Promise<{ items: DecidedPair[]; total: number }> {
  const winners =
    options.direction === "regressions" ? ["a"] : options.direction === "improvements" ? ["b"] : ["a", "b"];
  const both = comparison.orders === "both";
  const from = `FROM "PairwiseVerdict" x
    ${both ? `JOIN "PairwiseVerdict" y ON y."comparisonId" = x."comparisonId" AND y."criterion" = x."criterion" AND y."baselineRowId" = x."baselineRowId" AND y."shownOrder" = 'ba' AND y."status" = 'done' AND y."winner" = x."winner"` : ""}
    WHERE x."comparisonId" = ? AND x."criterion" = ? AND x."status" = 'done' ${both ? `AND x."shownOrder" = 'ab'` : ""}
      AND x."winner" IN (${winners.map(() => "?").join(", ")})`;
  const params = [comparison.id, criterion, ...winners];
  const sql = sqlOf(db);
  const [count, items] = await Promise.all([
    sql.get<{ total: number }>(`SELECT COUNT(*) AS "total" ${from}`, params),
    sql.all<DecidedPair>(
      `SELECT x."baselineRowId" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId",
         r."requestText" AS "requestText", x."winner" AS "winner"
       ${from.replace("WHERE", `JOIN "DatasetRow" r ON r."id" = x."baselineRowId" WHERE`)}
       ORDER BY CASE WHEN x."winner" = 'a' THEN 0 ELSE 1 END, x."rowNumber" LIMIT ? OFFSET ?`,
      [...params, options.limit, options.offset],
    ),
  ]);
  return {
    items: items.map((item) => ({ ...item, rowNumber: Number(item.rowNumber) })),
    total: Number(count?.total ?? 0),
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

/**
 * The side-by-side page's place in a list of decided pairs (listDecidedPairs' order), by a few indexed counts
 * and neighbour reads over the pairs, never the list in memory.
 */
export async function getDecidedPairPlace(
  db: Db,
  comparison: { id: string; orders: PairwiseOrders },
  criterion: string,
  direction: "regressions" | "improvements" | undefined,
  rowId: string,
): Promise<DecidedPairPlace> {
  const winners = direction === "regressions" ? ["a"] : direction === "improvements" ? ["b"] : ["a", "b"];
  const both = comparison.orders === "both";
  const pairs = `WITH f AS (
    SELECT x."baselineRowId" AS "rowId", x."rowNumber" AS "rowNumber", CASE WHEN x."winner" = 'a' THEN 1 ELSE 0 END AS "loss"
    FROM "PairwiseVerdict" x
    ${both ? `JOIN "PairwiseVerdict" y ON y."comparisonId" = x."comparisonId" AND y."criterion" = x."criterion" AND y."baselineRowId" = x."baselineRowId" AND y."shownOrder" = 'ba' AND y."status" = 'done' AND y."winner" = x."winner"` : ""}
    WHERE x."comparisonId" = ? AND x."criterion" = ? AND x."status" = 'done' ${both ? `AND x."shownOrder" = 'ab'` : ""}
      AND x."winner" IN (${winners.map(() => "?").join(", ")}))`;
  const listParams = [comparison.id, criterion, ...winners];
  const sql = sqlOf(db);
  const query = (select: string, ...params: (string | number)[]) =>
    sql.all<{ rowId?: string; n?: number; rowNumber?: number; loss?: number }>(`${pairs} ${select}`, [
      ...listParams,
      ...params,
    ]);
  const idOf = (rows: { rowId?: string }[]) => rows[0]?.rowId ?? null;
  const total = Number((await query(`SELECT COUNT(*) AS "n" FROM f`))[0]?.n ?? 0);
  const firstLoss = async () =>
    idOf(await query(`SELECT "rowId" FROM f WHERE "loss" = 1 ORDER BY "rowNumber" LIMIT 1`));
  const found = (await query(`SELECT "rowNumber", "loss" FROM f WHERE "rowId" = ?`, rowId))[0];
  if (!found) {
    const head = idOf(await query(`SELECT "rowId" FROM f ORDER BY "loss" DESC, "rowNumber" LIMIT 1`));
    return { position: null, total, previous: null, next: head, nextLoss: await firstLoss() };
  }
  const key = [Number(found.loss), Number(found.rowNumber)];
  const keyParams = [key[0], key[0], key[1]];
  const before = `("loss" > ? OR ("loss" = ? AND "rowNumber" < ?))`;
  const after = `("loss" < ? OR ("loss" = ? AND "rowNumber" > ?))`;
  const [counted, previous, next, laterLoss] = await Promise.all([
    query(`SELECT COUNT(*) AS "n" FROM f WHERE ${before}`, ...keyParams),
    query(`SELECT "rowId" FROM f WHERE ${before} ORDER BY "loss" ASC, "rowNumber" DESC LIMIT 1`, ...keyParams).then(
      idOf,
    ),
    query(`SELECT "rowId" FROM f WHERE ${after} ORDER BY "loss" DESC, "rowNumber" LIMIT 1`, ...keyParams).then(idOf),
    query(`SELECT "rowId" FROM f WHERE "loss" = 1 AND ${after} ORDER BY "rowNumber" LIMIT 1`, ...keyParams).then(idOf),
  ]);
  const wrapped = laterLoss ?? (await firstLoss());
  return {
    position: Number(counted[0]?.n ?? 0) + 1,
    total,
    previous,
    next,
    nextLoss: wrapped === rowId ? null : wrapped,
  };
}

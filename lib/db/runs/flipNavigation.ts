import { sqlOf, type Db } from "../client";
import { IMPROVEMENT, REGRESSION } from "../judgments/compareQueries";
import { pairedJoin, rowPairingMode } from "../judgments/rowPairing";

/** A flip is one (row, metric) of the flip list. */
export type FlipKey = { rowId: string; metric: string };

/**
 * Where one flip stands in the compare page's flip list (with its filters), and its neighbours there: what
 * the side-by-side row page's "flip 3 of 17" and its j / k / n keys follow.
 */
export type FlipPlace = {
  /** 1-based place in the list; null when the flip is not in the filtered list (or no longer a flip). */
  position: number | null;
  total: number;
  previous: FlipKey | null;
  next: FlipKey | null;
  /** The next regression after this flip in the list's order, from the first again after the last one. */
  nextRegression: FlipKey | null;
};

type Ordered = { rowId: string; metric: string };

/**
 * The list's order is listFlips' (regressions first, then by row number, then metric), so stepping here
 * meets the flips exactly as the list shows them. Neighbours are found by comparing that sort key with the
 * current flip's, a few indexed queries, never the whole list in memory.
 */
export async function getFlipPlace(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  filter: { metric?: string; direction?: "regressions" | "improvements" },
  current: FlipKey,
): Promise<FlipPlace> {
  const direction =
    filter.direction === "regressions"
      ? REGRESSION
      : filter.direction === "improvements"
        ? IMPROVEMENT
        : `(${REGRESSION} OR ${IMPROVEMENT})`;
  const sql = sqlOf(db);
  const join = pairedJoin(sql, await rowPairingMode(db, baselineRunId, candidateRunId), candidateRunId);
  const conditions = [`a."runId" = ?`, direction];
  const listParams: string[] = [...join.params, baselineRunId];
  if (filter.metric) {
    conditions.push(`a."metric" = ?`);
    listParams.push(filter.metric);
  }
  const flips = `WITH f AS (
    SELECT a."rowId" AS "rowId", r."rowNumber" AS "rowNumber", a."metric" AS "metric",
           CASE WHEN ${REGRESSION} THEN 1 ELSE 0 END AS "regression"
    ${join.from}
    JOIN "DatasetRow" r ON r."id" = a."rowId"
    WHERE ${conditions.join(" AND ")})`;
  const query = (select: string, ...params: (string | number)[]) =>
    sql.all<Record<string, unknown>>(`${flips} ${select}`, [...listParams, ...params]);
  const first = (rows: Record<string, unknown>[]): FlipKey | null =>
    rows[0] ? { rowId: String((rows[0] as Ordered).rowId), metric: String((rows[0] as Ordered).metric) } : null;

  const total = Number((await query(`SELECT COUNT(*) AS "n" FROM f`))[0]?.n ?? 0);
  const found = (
    await query(
      `SELECT "rowNumber", "regression" FROM f WHERE "rowId" = ? AND "metric" = ?`,
      current.rowId,
      current.metric,
    )
  )[0];
  const firstRegression = async () =>
    first(await query(`SELECT "rowId", "metric" FROM f WHERE "regression" = 1 ORDER BY "rowNumber", "metric" LIMIT 1`));
  if (!found) {
    const head = first(
      await query(`SELECT "rowId", "metric" FROM f ORDER BY "regression" DESC, "rowNumber", "metric" LIMIT 1`),
    );
    return { position: null, total, previous: null, next: head, nextRegression: await firstRegression() };
  }
  const key = [Number(found.regression), Number(found.rowNumber), current.metric] as const;
  const keyParams = [key[0], key[0], key[1], key[1], key[2]];
  const before = `("regression" > ? OR ("regression" = ? AND ("rowNumber" < ? OR ("rowNumber" = ? AND "metric" < ?))))`;
  const after = `("regression" < ? OR ("regression" = ? AND ("rowNumber" > ? OR ("rowNumber" = ? AND "metric" > ?))))`;
  // Independent reads of the same list: PostgreSQL answers them at once, SQLite one after another.
  const [counted, previous, next, laterRegression] = await Promise.all([
    query(`SELECT COUNT(*) AS "n" FROM f WHERE ${before}`, ...keyParams),
    query(
      `SELECT "rowId", "metric" FROM f WHERE ${before} ORDER BY "regression" ASC, "rowNumber" DESC, "metric" DESC LIMIT 1`,
      ...keyParams,
    ).then(first),
    query(
      `SELECT "rowId", "metric" FROM f WHERE ${after} ORDER BY "regression" DESC, "rowNumber", "metric" LIMIT 1`,
      ...keyParams,
    ).then(first),
    query(
      `SELECT "rowId", "metric" FROM f WHERE "regression" = 1 AND ${after} ORDER BY "rowNumber", "metric" LIMIT 1`,
      ...keyParams,
    ).then(first),
  ]);
  const position = Number(counted[0]?.n ?? 0) + 1;
  const wrapped = laterRegression ?? (await firstRegression());
  const isCurrent = wrapped && wrapped.rowId === current.rowId && wrapped.metric === current.metric;
  return { position, total, previous, next, nextRegression: isCurrent ? null : wrapped };
}

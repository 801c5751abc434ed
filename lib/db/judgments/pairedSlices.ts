import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";

/**
 * Judgments per slice of a read over the paired join of two runs, on SQLite. better-sqlite3 answers a
 * statement synchronously, and the paired join of two 100,000-row runs (700,000 judgments each) is seconds
 * of work: in one statement, every other request of the server waits for all of it. A slice is a range of
 * the baseline's rows on the pairing index, with the event loop free between slices: 5,000 judgments were
 * 30–100 ms at 100,000 rows on this machine under load (20,000 were up to 400 ms). PostgreSQL's reads wait
 * on the network, not the thread: one statement there.
 */
export const PAIRED_SLICE_JUDGMENTS = 5_000;

export type RowRange = { condition: string; params: string[] };

/**
 * The ranges of a run's row ids (`a."rowId"`, the baseline's in a paired read) that cover all its judgments in order, about
 * `sliceJudgments` judgments each: [from, to), where `to` is the row id `sliceJudgments` judgments past
 * `from` on the pairing index. On SQLite each range after the first comes on a fresh turn of the event loop;
 * on PostgreSQL there is one range, the whole run. A read over a run being judged may see it change between
 * two slices, as it may between two requests; a completed run's judgments do not change.
 */
export async function* runRowRanges(
  sql: SqlRunner,
  runId: string,
  sliceJudgments = PAIRED_SLICE_JUDGMENTS,
): AsyncGenerator<RowRange> {
  if (sql.dialect !== "sqlite") {
    yield { condition: "", params: [] };
    return;
  }
  const slice = Math.max(1, Math.floor(sliceJudgments));
  const pairing = sqlFragments(sql).indexHint("JudgmentItem_pairing_idx");
  let from: string | null = null;
  for (;;) {
    const next: { rowId: string } | undefined = await sql.get<{ rowId: string }>(
      `SELECT "rowId" AS "rowId" FROM "JudgmentItem"${pairing}
       WHERE "runId" = ?${from === null ? "" : ` AND "rowId" > ?`} ORDER BY "rowId" LIMIT 1 OFFSET ?`,
      from === null ? [runId, slice] : [runId, from, slice],
    );
    const to: string | null = next?.rowId ?? null;
    yield {
      condition: `${from === null ? "" : ` AND a."rowId" >= ?`}${to === null ? "" : ` AND a."rowId" < ?`}`,
      params: [from, to].filter((id) => id !== null),
    };
    if (to === null) return;
    from = to;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

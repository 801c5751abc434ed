import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/**
 * The numbers behind the run page's charts. Every query groups or pages in
 * SQL: a run of 10,000 rows × 7 metrics × 5 chunks returns a few dozen
 * numbers per histogram, one page of rows for the heatmap, and one row per
 * metric for judge usage.
 */

export type ValueHistogram = { min: number; max: number; buckets: { from: number; to: number; count: number }[] };

/** Metrics whose per-row values are raw numbers worth a histogram (JudgmentItem.score holds the value). */
export const HISTOGRAM_METRICS = ["agent/latency_seconds", "agent/total_token_count"] as const;

const MAX_BUCKETS = 100;

/**
 * Equal-width buckets over [min, max] of a metric's finished per-row values:
 * `bucketCount` of them, or one per value when there are fewer values (six
 * traced rows in twelve buckets would be mostly gaps). The last bucket is
 * closed ([from, to]) so the maximum lands in it. Null when no row has a
 * value; one bucket when every value is the same.
 */
export async function getValueHistogram(
  db: Db,
  runId: string,
  metric: string,
  bucketCount: number,
): Promise<ValueHistogram | null> {
  const where = `"runId" = ? AND "metric" = ? AND "status" = 'done' AND "score" IS NOT NULL`;
  const sql = sqlOf(db);
  const { least, truncToInt } = sqlFragments(sql);
  const range = await sql.get<{ min: number | null; max: number | null; n: number }>(
    `SELECT MIN("score") AS "min", MAX("score") AS "max", COUNT(*) AS "n" FROM "JudgmentItem" WHERE ${where}`,
    [runId, metric],
  );
  if (!range || Number(range.n) === 0 || range.min === null || range.max === null) return null;
  const min = Number(range.min);
  const max = Number(range.max);
  if (min === max) return { min, max, buckets: [{ from: min, to: max, count: Number(range.n) }] };
  const buckets = Math.min(MAX_BUCKETS, Number(range.n), Math.max(1, Math.floor(bucketCount)));

  const width = (max - min) / buckets;
  // Integer division by the bucket width; the maximum (and any float overshoot) is clamped into the last bucket.
  const counts = await sql.all<{ bucket: number; count: number }>(
    `SELECT ${least(truncToInt(`("score" - ?) * 1.0 / ?`), "?")} AS "bucket", COUNT(*) AS "count"
     FROM "JudgmentItem" WHERE ${where}
     GROUP BY "bucket"`,
    [min, width, buckets - 1, runId, metric],
  );
  const byBucket = new Map(counts.map((row) => [Number(row.bucket), Number(row.count)]));
  return {
    min,
    max,
    buckets: Array.from({ length: buckets }, (_, i) => ({
      from: min + i * width,
      to: i === buckets - 1 ? max : min + (i + 1) * width,
      count: byBucket.get(i) ?? 0,
    })),
  };
}

export type ScoreHistogram = ValueHistogram & {
  /** The pass mark the rows were judged against (every row of a run carries the same one), or null. */
  threshold: number | null;
};

/**
 * A score metric's per-row scores (DeepEval, Mastra) in `bucketCount` equal bins over the fixed range
 * [0, top], top = 1 or the largest score when a scaled context_relevance goes above it: scores of
 * two runs bin alike whatever their spread. Bin i holds [i·w, (i+1)·w), the last one closed. The
 * product is nudged by 1e-9 so that a score on an edge (0.7 = 7 × 0.1) falls in the bin it starts,
 * not the one below, as binary floating point would put it. Null when no row has a score.
 */
export async function getScoreHistogram(
  db: Db,
  runId: string,
  metric: string,
  bucketCount: number,
): Promise<ScoreHistogram | null> {
  const kept = await keptScoreBins(db, runId, metric, bucketCount);
  if (kept !== undefined) return kept;
  const where = `"runId" = ? AND "metric" = ? AND "status" = 'done' AND "score" IS NOT NULL`;
  const sql = sqlOf(db);
  const { least, greatest, truncToInt } = sqlFragments(sql);
  const range = await sql.get<{ min: number | null; max: number | null; n: number; threshold: number | null }>(
    `SELECT MIN("score") AS "min", MAX("score") AS "max", COUNT(*) AS "n", MAX("threshold") AS "threshold"
     FROM "JudgmentItem" WHERE ${where}`,
    [runId, metric],
  );
  if (!range || Number(range.n) === 0 || range.max === null) return null;
  const top = Math.max(1, Number(range.max));
  const buckets = Math.min(MAX_BUCKETS, Math.max(1, Math.floor(bucketCount)));
  const counts = await sql.all<{ bucket: number; count: number }>(
    `SELECT ${least(greatest(truncToInt(`"score" * ? / ? + 1e-9`), "0"), "?")} AS "bucket", COUNT(*) AS "count"
     FROM "JudgmentItem" WHERE ${where}
     GROUP BY "bucket"`,
    [buckets, top, buckets - 1, runId, metric],
  );
  const byBucket = new Map(counts.map((row) => [Number(row.bucket), Number(row.count)]));
  // Edges as i·top/n, not i·(top/n): 7 × 0.1 is 0.7000000000000001, 7 / 10 is 0.7, so an edge equals the pass mark it meets.
  return {
    min: 0,
    max: top,
    threshold: range.threshold === null ? null : Number(range.threshold),
    buckets: Array.from({ length: buckets }, (_, i) => ({
      from: (i * top) / buckets,
      to: i === buckets - 1 ? top : ((i + 1) * top) / buckets,
      count: byBucket.get(i) ?? 0,
    })),
  };
}

/**
 * The tenths RunMetricTally keeps of scores in [0, 1] (bin0 … bin9): the run page's score histograms, bins of
 * 0.1 on the scale of the DeepEval and Mastra scores, so a 0.5 pass mark falls on an edge.
 */
export const KEPT_SCORE_BINS = 10;

/**
 * The score histogram from the kept tallies: null when no row has a score, undefined when the tallies
 * cannot say (another number of bins, or a score above 1, which widens the range), so the caller reads
 * the judgments. The pass mark is read from one judgment (every row of a run carries the same one).
 */
async function keptScoreBins(
  db: Db,
  runId: string,
  metric: string,
  bucketCount: number,
): Promise<ScoreHistogram | null | undefined> {
  if (Math.floor(bucketCount) !== KEPT_SCORE_BINS) return undefined;
  const sql = sqlOf(db);
  const bins = Array.from({ length: KEPT_SCORE_BINS }, (_, i) => `SUM("bin${i}") AS "bin${i}"`).join(", ");
  const tally = await sql.get<Record<string, number | null>>(
    `SELECT ${bins}, SUM("overOne") AS "overOne" FROM "RunMetricTally" WHERE "runId" = ? AND "metric" = ?`,
    [runId, metric],
  );
  if (!tally || Number(tally.overOne ?? 0) > 0) return undefined;
  const counts = Array.from({ length: KEPT_SCORE_BINS }, (_, i) => Number(tally[`bin${i}`] ?? 0));
  if (counts.every((count) => count === 0)) return null;
  const first = await sql.get<{ threshold: number | null }>(
    `SELECT "threshold" FROM "JudgmentItem" WHERE "runId" = ? AND "metric" = ? AND "status" = 'done' AND "score" IS NOT NULL LIMIT 1`,
    [runId, metric],
  );
  return {
    min: 0,
    max: 1,
    threshold: first?.threshold == null ? null : Number(first.threshold),
    buckets: counts.map((count, i) => ({
      from: i / KEPT_SCORE_BINS,
      to: i === KEPT_SCORE_BINS - 1 ? 1 : (i + 1) / KEPT_SCORE_BINS,
      count,
    })),
  };
}

export type ChunkVerdict = "yes" | "no" | "error" | null;
export type ChunkHeatmapRow = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  /** The row's chunk precision for the heatmap's metric (JudgmentItem.score), null when not computed. */
  precision: number | null;
  /** The row's document recall, null when not computed. */
  recall: number | null;
  cells: { position: number; verdict: ChunkVerdict; expected: boolean }[];
};
export type ChunkHeatmap = {
  rows: ChunkHeatmapRow[];
  /** Highest retrieved-chunk position (0-based) among the rows, −1 when none has chunks. */
  maxPosition: number;
  /** Rows in the run's dataset, so the caller can say "rows 51–100 of 10,000". */
  totalRows: number;
  /** Where the page before and the page after start (a row number), null at either end. */
  previousFrom: number | null;
  nextFrom: number | null;
};

export const HEATMAP_MAX_ROWS = 200;
const DOCUMENT_RECALL = "retrieval/ground_truth/document_recall";

/**
 * Per-chunk verdicts for one page of a run's dataset rows, by row number from
 * `fromRowNumber` on: for each retrieved chunk, the judge's verdict and whether
 * its doc_uri is one of the row's expected documents; per row, its precision
 * and recall. Paged by key (row number) through (datasetId, rowNumber), so the
 * last page of a million rows costs what the first does; where the previous
 * page starts is one more seek, and the total is the dataset's stored row count.
 */
export async function getChunkHeatmap(
  db: Db,
  runId: string,
  options: { metric: string; limitRows: number; fromRowNumber: number },
): Promise<ChunkHeatmap> {
  const limit = Math.min(HEATMAP_MAX_ROWS, Math.max(0, Math.floor(options.limitRows)));
  const from = Math.max(1, Math.floor(options.fromRowNumber));
  const none = { rows: [], maxPosition: -1, totalRows: 0, previousFrom: null, nextFrom: null };
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { datasetId: true, dataset: { select: { rowCount: true } } },
  });
  if (!run || limit === 0) return none;
  const totalRows = run.dataset.rowCount;

  const sql = sqlOf(db);
  const [fetched, before] = await Promise.all([
    // One row more than the page: whether a next page exists, and where it starts.
    sql.all<{
      rowId: string;
      rowNumber: number;
      requestId: string;
      precision: number | null;
      precisionStatus: string | null;
      recall: number | null;
    }>(
      `SELECT r."id" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId",
         p."score" AS "precision", p."status" AS "precisionStatus", d."score" AS "recall"
       FROM "DatasetRow" r
       LEFT JOIN "JudgmentItem" p ON p."runId" = ? AND p."rowId" = r."id" AND p."metric" = ? AND p."trial" = 1
       LEFT JOIN "JudgmentItem" d ON d."runId" = ? AND d."rowId" = r."id" AND d."metric" = ? AND d."trial" = 1
       WHERE r."datasetId" = ? AND r."rowNumber" >= ?
       ORDER BY r."rowNumber"
       LIMIT ?`,
      [runId, options.metric, runId, DOCUMENT_RECALL, run.datasetId, from, limit + 1],
    ),
    // The row numbers of the page before, nearest first: the last of them is where it starts.
    sql.all<{ rowNumber: number }>(
      `SELECT "rowNumber" FROM "DatasetRow" WHERE "datasetId" = ? AND "rowNumber" < ? ORDER BY "rowNumber" DESC LIMIT ?`,
      [run.datasetId, from, limit],
    ),
  ]);
  const rows = fetched.slice(0, limit);
  const paging = {
    totalRows,
    previousFrom: before.length === 0 ? null : Number(before[before.length - 1].rowNumber),
    nextFrom: fetched.length > limit ? Number(fetched[limit].rowNumber) : null,
  };
  if (rows.length === 0) return { ...none, ...paging };

  const rowIds = rows.map((row) => row.rowId);
  // The page is a row-number range, so its chunks are selected by that range, not by a list of its row ids.
  // The chunks' join condition sits in WHERE: PostgreSQL's CROSS JOIN takes no ON, and SQLite's still reads r first.
  const cells = await sql.all<{
    rowId: string;
    position: number;
    rating: string | null;
    judged: number;
    expected: number;
  }>(
    `SELECT c."rowId" AS "rowId", c."position" AS "position", j."rating" AS "rating", (j."id" IS NOT NULL) AS "judged",
       EXISTS (SELECT 1 FROM "ContextChunk" e WHERE e."rowId" = c."rowId" AND e."kind" = 'expected' AND e."docUri" = c."docUri") AS "expected"
     FROM "DatasetRow" r
     CROSS JOIN "ContextChunk" c
     LEFT JOIN "ChunkJudgment" j ON j."runId" = ? AND j."rowId" = c."rowId" AND j."metric" = ? AND j."position" = c."position"
     WHERE c."rowId" = r."id" AND c."kind" = 'retrieved' AND r."datasetId" = ? AND r."rowNumber" BETWEEN ? AND ?
     ORDER BY c."rowId", c."position"`,
    [runId, options.metric, run.datasetId, Number(rows[0].rowNumber), Number(rows[rows.length - 1].rowNumber)],
  );

  const byRow = new Map<string, ChunkHeatmapRow["cells"]>(rowIds.map((id) => [id, []]));
  const rowErrored = new Map(rows.map((row) => [row.rowId, row.precisionStatus === "error"]));
  let maxPosition = -1;
  for (const cell of cells) {
    const position = Number(cell.position);
    maxPosition = Math.max(maxPosition, position);
    // A chunk judgment without a rating is a per-chunk error; a row whose whole judgment errored has no chunk judgments at all.
    const verdict: ChunkVerdict =
      cell.rating === "yes" || cell.rating === "no"
        ? cell.rating
        : Number(cell.judged) === 1 || rowErrored.get(cell.rowId)
          ? "error"
          : null;
    byRow.get(cell.rowId)?.push({ position, verdict, expected: Number(cell.expected) === 1 });
  }
  return {
    rows: rows.map((row) => ({
      rowId: row.rowId,
      rowNumber: Number(row.rowNumber),
      requestId: row.requestId,
      precision: row.precision === null ? null : Number(row.precision),
      recall: row.recall === null ? null : Number(row.recall),
      cells: byRow.get(row.rowId) ?? [],
    })),
    maxPosition,
    ...paging,
  };
}

export type JudgeUsageLine = {
  metric: string;
  /** Judgment items of this metric in the run. */
  items: number;
  /** Items that recorded token usage (a judge call was made or its cached usage reused). */
  metered: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum of the priced items' cost; null when no item of this metric was priced. */
  costUsd: number | null;
  /** Items with a cost: fewer than `metered` means the total is a lower bound. */
  priced: number;
};
export type JudgeUsage = { total: Omit<JudgeUsageLine, "metric">; metrics: JudgeUsageLine[] };

/** Judge tokens and cost per metric and in total, from the kept tallies (RunMetricTally). */
export async function getJudgeUsage(db: Db, runId: string): Promise<JudgeUsage> {
  const rows = await sqlOf(db).all<Record<string, string | number | null>>(
    `SELECT "metric" AS "metric", SUM("items") AS "items", SUM("metered") AS "metered", SUM("cacheHits") AS "cacheHits",
       SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens",
       SUM("costUsd") AS "costUsd", SUM("priced") AS "priced"
     FROM "RunMetricTally" WHERE "runId" = ?
     GROUP BY "metric" HAVING SUM("items") > 0 ORDER BY "metric"`,
    [runId],
  );
  const metrics: JudgeUsageLine[] = rows.map((row) => ({
    metric: String(row.metric),
    items: Number(row.items),
    metered: Number(row.metered),
    cacheHits: Number(row.cacheHits),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    // A sum of no priced items is no cost at all, not a cost of 0.
    costUsd: Number(row.priced) === 0 ? null : Number(row.costUsd),
    priced: Number(row.priced),
  }));
  const sum = (pick: (line: JudgeUsageLine) => number) => metrics.reduce((total, line) => total + pick(line), 0);
  const priced = metrics.filter((line) => line.costUsd !== null);
  return {
    total: {
      items: sum((l) => l.items),
      metered: sum((l) => l.metered),
      cacheHits: sum((l) => l.cacheHits),
      inputTokens: sum((l) => l.inputTokens),
      outputTokens: sum((l) => l.outputTokens),
      costUsd: priced.length === 0 ? null : priced.reduce((total, line) => total + (line.costUsd ?? 0), 0),
      priced: sum((l) => l.priced),
    },
    metrics,
  };
}

import { DEFAULT_SCORE_THRESHOLD } from "@/lib/engine/thresholds";
import {
  summarizeAgreement,
  summarizeScoreAgreement,
  type AgreementSummary,
  type ScoreAgreement,
  type ScorePair,
} from "@/lib/stats";
import { databaseUrlOf, type Db } from "./client";
import { connectionFor, preparedStatement } from "./directSqlite";

/**
 * A run's judges against the dataset's current human labels, counted in SQL.
 *
 * PAIRED is every current label of the dataset joined with the run's verdict
 * for the same (row, metric) and, for a chunk label, the same chunk. Each
 * pair gets a judge verdict and a human verdict, both yes/no:
 * - rating labels compare the judge's rating (or chunk rating) with the label;
 * - score labels compare pass/fail at the judgment's own threshold (the run's
 *   pass mark, DEFAULT_SCORE_THRESHOLD when none was stored) on both sides, so
 *   κ and the confusion matrix exist for score judges too; their Spearman and
 *   mean absolute difference come from the raw scores (readScorePairs).
 * and an outcome: judged (both verdicts known), error (the judgment or the
 * chunk's verdict errored) or unjudged (no judgment, pending, skipped, or no
 * verdict). Errors and unjudged pairs are counted beside the matrix.
 *
 * Binds @runId and @datasetId (named, so the fragment can be reused in any query). Per-row lookups go through the unique
 * indexes (JudgmentItem runId+rowId+metric, ChunkJudgment judgmentId+position).
 */
function pairedFor(runParam: string): string {
  return `
  SELECT l."rowId", l."metric", l."chunkPosition", l."kind", l."score" AS "humanScore", j."score" AS "judgeScore",
    CASE
      WHEN j."status" = 'error' THEN 'error'
      WHEN l."chunkPosition" >= 0 AND j."status" = 'done' AND c."errorMessage" IS NOT NULL THEN 'error'
      WHEN j."status" = 'done' AND (CASE WHEN l."chunkPosition" >= 0 THEN c."rating" WHEN l."kind" = 'score' THEN j."score" ELSE j."rating" END) IS NOT NULL THEN 'judged'
      ELSE 'unjudged'
    END AS "outcome",
    CASE
      WHEN l."chunkPosition" >= 0 THEN c."rating"
      WHEN l."kind" = 'score' THEN CASE WHEN j."score" IS NULL THEN NULL WHEN j."score" >= COALESCE(j."threshold", ${DEFAULT_SCORE_THRESHOLD}) THEN 'yes' ELSE 'no' END
      ELSE j."rating"
    END AS "judge",
    CASE
      WHEN l."kind" = 'score' THEN CASE WHEN l."score" >= COALESCE(j."threshold", ${DEFAULT_SCORE_THRESHOLD}) THEN 'yes' ELSE 'no' END
      ELSE l."rating"
    END AS "human"
  FROM "HumanLabel" l
  LEFT JOIN "JudgmentItem" j ON j."runId" = @${runParam} AND j."rowId" = l."rowId" AND j."metric" = l."metric"
  LEFT JOIN "ChunkJudgment" c ON l."chunkPosition" >= 0 AND c."judgmentId" = j."id" AND c."position" = l."chunkPosition"
  WHERE l."datasetId" = @datasetId`;
}
const PAIRED = pairedFor("runId");

type RunRef = { id: string; datasetId: string };

export type AgreementCounts = {
  metric: string;
  /** rating | score; chunk metrics report "rating" with perChunk true. */
  kind: "rating" | "score";
  perChunk: boolean;
  yesYes: number;
  yesNo: number;
  noYes: number;
  noNo: number;
  errors: number;
  unjudged: number;
};

function connection(db: Db) {
  return connectionFor(databaseUrlOf(db));
}

/** The confusion cells, errors and unjudged labels of every labelled metric of a run, in one GROUP BY. */
export function readAgreementCounts(db: Db, run: RunRef): AgreementCounts[] {
  const rows = preparedStatement(
    connection(db),
    `WITH paired AS (${PAIRED})
     SELECT "metric", MAX("kind") AS "kind", MAX("chunkPosition") >= 0 AS "perChunk",
       SUM("outcome" = 'judged' AND "judge" = 'yes' AND "human" = 'yes') AS "yesYes",
       SUM("outcome" = 'judged' AND "judge" = 'yes' AND "human" = 'no') AS "yesNo",
       SUM("outcome" = 'judged' AND "judge" = 'no' AND "human" = 'yes') AS "noYes",
       SUM("outcome" = 'judged' AND "judge" = 'no' AND "human" = 'no') AS "noNo",
       SUM("outcome" = 'error') AS "errors",
       SUM("outcome" = 'unjudged') AS "unjudged"
     FROM paired GROUP BY "metric" ORDER BY "metric"`,
  ).all({ runId: run.id, datasetId: run.datasetId }) as (Omit<AgreementCounts, "perChunk"> & { perChunk: number })[];
  return rows.map((row) => ({ ...row, perChunk: row.perChunk === 1 }));
}

/** The judge's and the person's scores for a score metric, one page of rows after a row number. */
export function readScorePairsPage(
  db: Db,
  run: RunRef,
  metric: string,
  afterRowNumber: number,
  limit = 1000,
): (ScorePair & { rowNumber: number })[] {
  return preparedStatement(
    connection(db),
    `WITH paired AS (${PAIRED} AND l."metric" = @metric AND l."kind" = 'score')
     SELECT r."rowNumber", p."judgeScore" AS "judge", p."humanScore" AS "human"
     FROM paired p JOIN "DatasetRow" r ON r."id" = p."rowId"
     WHERE p."outcome" = 'judged' AND r."rowNumber" > @after
     ORDER BY r."rowNumber" LIMIT @limit`,
  ).all({
    runId: run.id,
    datasetId: run.datasetId,
    metric,
    after: afterRowNumber,
    limit: Math.min(Math.max(1, limit), 5000),
  }) as (ScorePair & {
    rowNumber: number;
  })[];
}

/** Every score pair of a metric, read a page at a time (two numbers per labelled row in memory). */
export function readScorePairs(db: Db, run: RunRef, metric: string, pageSize = 1000): ScorePair[] {
  const pairs: ScorePair[] = [];
  let after = 0;
  for (;;) {
    const page = readScorePairsPage(db, run, metric, after, pageSize);
    for (const { judge, human } of page) pairs.push({ judge, human });
    if (page.length < pageSize) return pairs;
    after = page[page.length - 1].rowNumber;
  }
}

export type JudgeAgreement = AgreementSummary & {
  metric: string;
  kind: "rating" | "score";
  perChunk: boolean;
  unjudged: number;
  /** Score metrics only: Spearman's ρ and the mean absolute difference on the raw scores. */
  scores: ScoreAgreement | null;
};

/** Agreement per judge for one run: what the run page's agreement panel and the CLI show. */
export function getRunAgreement(db: Db, run: RunRef): JudgeAgreement[] {
  return readAgreementCounts(db, run).map((counts) => {
    const { metric, kind, perChunk, errors, unjudged, yesYes, yesNo, noYes, noNo } = counts;
    return {
      ...summarizeAgreement({ yesYes, yesNo, noYes, noNo }, errors),
      metric,
      kind,
      perChunk,
      unjudged,
      scores: kind === "score" ? summarizeScoreAgreement(readScorePairs(db, run, metric)) : null,
    };
  });
}

export type PairedRunCounts = {
  metric: string;
  bothAgree: number;
  onlyAAgrees: number;
  onlyBAgrees: number;
  bothDisagree: number;
};

/**
 * Two runs of the same dataset on the labels both judged (errors and
 * unjudged on either side left out), per metric: the counts the paired
 * McNemar test takes (lib/stats pairedAgreementTest).
 */
export function readPairedRunAgreement(db: Db, runA: RunRef, runB: RunRef): PairedRunCounts[] {
  if (runA.datasetId !== runB.datasetId) throw new Error("runs of different datasets share no labels");
  return preparedStatement(
    connection(db),
    `WITH a AS (${pairedFor("runA")}), b AS (${pairedFor("runB")})
     SELECT a."metric",
       SUM(a."judge" = a."human" AND b."judge" = b."human") AS "bothAgree",
       SUM(a."judge" = a."human" AND b."judge" <> b."human") AS "onlyAAgrees",
       SUM(a."judge" <> a."human" AND b."judge" = b."human") AS "onlyBAgrees",
       SUM(a."judge" <> a."human" AND b."judge" <> b."human") AS "bothDisagree"
     FROM a JOIN b ON b."rowId" = a."rowId" AND b."metric" = a."metric" AND b."chunkPosition" = a."chunkPosition"
     WHERE a."outcome" = 'judged' AND b."outcome" = 'judged'
     GROUP BY a."metric" ORDER BY a."metric"`,
  ).all({ runA: runA.id, runB: runB.id, datasetId: runA.datasetId }) as PairedRunCounts[];
}

/** A confusion cell (judge verdict × human verdict), or the labelled rows the judge errored on. */
export type AgreementCell = { judge: "yes" | "no"; human: "yes" | "no" } | { errors: true };

export type AgreementRowQuery = {
  /** Only this metric's labels; all labelled metrics when absent. */
  metric?: string;
  q: string;
  sort: "rowNumber" | "requestId";
  dir: "asc" | "desc";
  page: number;
  pageSize: number;
};

export type AgreementRowRef = { rowId: string; rowNumber: number; requestId: string };

/**
 * Rows of a run whose labels fall in one confusion cell of a metric (a link
 * from the agreement panel), paged and sorted like the rows table. A chunk
 * metric's row is listed once however many of its chunks fall in the cell.
 */
export function listAgreementCellRows(
  db: Db,
  run: RunRef,
  metric: string,
  cell: AgreementCell,
  query: AgreementRowQuery,
) {
  const condition =
    "errors" in cell ? `p."outcome" = 'error'` : `p."outcome" = 'judged' AND p."judge" = @judge AND p."human" = @human`;
  const values: Record<string, string> = "errors" in cell ? {} : { judge: cell.judge, human: cell.human };
  return pageOfRows(db, run, { ...query, metric }, condition, values);
}

/**
 * The rows table's "judge disagrees with the label" filter: rows where some
 * judged label (of one metric, or of any) differs from the run's verdict.
 */
export function listDisagreementRows(db: Db, run: RunRef, query: AgreementRowQuery) {
  return pageOfRows(db, run, query, `p."outcome" = 'judged' AND p."judge" <> p."human"`, {});
}

const MAX_ROWS_PAGE = 200;

function pageOfRows(
  db: Db,
  run: RunRef,
  query: AgreementRowQuery,
  condition: string,
  values: Record<string, string>,
): { items: AgreementRowRef[]; total: number; page: number; pageSize: number; pageCount: number } {
  const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize)), MAX_ROWS_PAGE);
  const q = query.q.trim();
  const where = `r."datasetId" = @datasetId
    AND r."id" IN (SELECT p."rowId" FROM paired p WHERE ${condition}${query.metric ? ` AND p."metric" = @metric` : ""})
    ${q ? `AND (r."requestText" LIKE @like ESCAPE '\\' OR r."response" LIKE @like ESCAPE '\\' OR r."requestId" LIKE @like ESCAPE '\\')` : ""}`;
  const bound = {
    runId: run.id,
    datasetId: run.datasetId,
    ...(query.metric ? { metric: query.metric } : {}),
    ...(q ? { like: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : {}),
    ...values,
  };
  const c = connection(db);
  const { total } = preparedStatement(
    c,
    `WITH paired AS (${PAIRED}) SELECT COUNT(*) AS "total" FROM "DatasetRow" r WHERE ${where}`,
  ).get(bound) as { total: number };
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(query.page)), pageCount);
  // Column and direction come from closed enums, never from text.
  const sortColumn = query.sort === "requestId" ? `r."requestId"` : `r."rowNumber"`;
  const direction = query.dir === "desc" ? "DESC" : "ASC";
  const items = preparedStatement(
    c,
    `WITH paired AS (${PAIRED})
     SELECT r."id" AS "rowId", r."rowNumber", r."requestId" FROM "DatasetRow" r WHERE ${where}
     ORDER BY ${sortColumn} ${direction}, r."rowNumber" ASC LIMIT @limit OFFSET @offset`,
  ).all({ ...bound, limit: pageSize, offset: (page - 1) * pageSize }) as AgreementRowRef[];
  return { items, total, page, pageSize, pageCount };
}

import type { LabelValue } from "@/lib/stats";
import { sqlOf, type Db } from "../client";
import { givenOnOtherResponse, judgedResponseHash } from "./agreementQueries";
import { RUN_JUDGED_HASH, type LabelWithRow } from "./labelQueries";
import { sqlFragments } from "../store/sqlFragments";

/**
 * Several people's labels of one metric, read for agreement between them: who labelled and how much,
 * the rows grouped by what each person gave (and, for a run, the judge's verdict beside them), and how
 * the gold labels were decided. Everything is a GROUP BY over PersonLabel's (dataset, metric, chunk,
 * row, labeller) index, so 100,000 rows labelled by three people come back as a few dozen patterns.
 */
export type LabellerCount = { labeller: string; labels: number };

/** The most labellers one metric's patterns are read for (one column each); the rest are named as left out. */
export const MAX_PATTERN_LABELLERS = 40;

export async function readMetricLabellers(db: Db, datasetId: string, metric: string): Promise<LabellerCount[]> {
  const rows = await sqlOf(db).all<{ labeller: string; labels: number }>(
    `SELECT "labeller", COUNT(*) AS "labels" FROM "PersonLabel" WHERE "datasetId" = ? AND "metric" = ?
     GROUP BY "labeller" ORDER BY COUNT(*) DESC, "labeller"`,
    [datasetId, metric],
  );
  return rows.map((row) => ({ labeller: row.labeller, labels: Number(row.labels) }));
}

/** The metrics of a dataset that more than one person labelled, with their label kind (chunk ratings are ratings). */
export async function readMultiLabellerMetrics(
  db: Db,
  datasetId: string,
): Promise<{ metric: string; kind: "rating" | "score" }[]> {
  const rows = await sqlOf(db).all<{ metric: string; kind: string }>(
    `SELECT "metric", MAX("kind") AS "kind" FROM "PersonLabel" WHERE "datasetId" = ?
     GROUP BY "metric" HAVING COUNT(DISTINCT "labeller") > 1 ORDER BY "metric"`,
    [datasetId],
  );
  return rows.map((row) => ({ metric: row.metric, kind: row.kind === "score" ? "score" : "rating" }));
}

/** Whether more than one person labelled rows of the dataset: two reads of the (dataset, labeller) index. */
export async function datasetHasSeveralLabellers(db: Db, datasetId: string): Promise<boolean> {
  const sql = sqlOf(db);
  const first = await sql.get<{ labeller: string }>(
    `SELECT "labeller" FROM "PersonLabel" WHERE "datasetId" = ? ORDER BY "labeller" LIMIT 1`,
    [datasetId],
  );
  if (!first) return false;
  const other = await sql.get<{ labeller: string }>(
    `SELECT "labeller" FROM "PersonLabel" WHERE "datasetId" = ? AND "labeller" > ? ORDER BY "labeller" LIMIT 1`,
    [datasetId, first.labeller],
  );
  return other !== undefined;
}

export type StoredPattern = { values: (LabelValue | null)[]; judge: LabelValue | null; count: number };

/**
 * The metric's rows (and chunks) grouped by each labeller's value, in `labellers`' order: a rating's
 * yes/no, a score's number. With a run, `judge` is its verdict on the row (rating, score or the chunk's
 * rating) when it judged the response the labels were given on, else null.
 */
export async function readLabelPatterns(
  db: Db,
  query: { datasetId: string; metric: string; kind: "rating" | "score"; labellers: readonly string[]; runId?: string },
): Promise<StoredPattern[]> {
  const sql = sqlOf(db);
  const column = query.kind === "score" ? `p."score"` : `p."rating"`;
  const params: Record<string, string> = { datasetId: query.datasetId, metric: query.metric };
  const pivots = query.labellers.map((labeller, i) => {
    params[`l${i}`] = labeller;
    return `MAX(CASE WHEN p."labeller" = @l${i} THEN ${column} END) AS "v${i}"`;
  });
  const columns = query.labellers.map((_, i) => `"v${i}"`);
  let judge = `NULL`;
  let joins = "";
  if (query.runId) {
    params.runId = query.runId;
    const verdict = `CASE WHEN u."chunkPosition" >= 0 THEN c."rating" WHEN '${query.kind}' = 'score' THEN ${sql.dialect === "postgresql" ? `CAST(j."score" AS TEXT)` : `j."score"`} ELSE j."rating" END`;
    judge = `CASE WHEN j."status" = 'done' AND NOT ${givenOnOtherResponse(judgedResponseHash(""))} THEN ${verdict} END`;
    joins = `JOIN "DatasetRow" r ON r."id" = u."rowId"
      LEFT JOIN "HumanLabel" l ON l."rowId" = u."rowId" AND l."metric" = @metric AND l."chunkPosition" = u."chunkPosition"
      LEFT JOIN "JudgmentItem" j ON j."runId" = @runId AND j."rowId" = u."rowId" AND j."metric" = @metric AND j."trial" = 1
      LEFT JOIN "ChunkJudgment" c ON u."chunkPosition" >= 0 AND c."judgmentId" = j."id" AND c."position" = u."chunkPosition"
      LEFT JOIN "Generation" g ON g."runId" = @runId AND g."rowId" = u."rowId" AND g."trial" = 1
      LEFT JOIN (SELECT "generationModel" AS "gen" FROM "Run" WHERE "id" = @runId) run ON true`;
  }
  const rows = await sql.all<Record<string, string | number | null>>(
    `SELECT ${columns.join(", ")}${columns.length ? ", " : ""}"judge", COUNT(*) AS "count" FROM (
       SELECT ${columns.map((c) => `u.${c}`).join(", ")}${columns.length ? ", " : ""}${judge} AS "judge"
       FROM (
         SELECT p."chunkPosition", p."rowId"${pivots.length ? ", " : ""}${pivots.join(", ")}
         FROM "PersonLabel" p WHERE p."datasetId" = @datasetId AND p."metric" = @metric
         GROUP BY p."chunkPosition", p."rowId"
       ) u
       ${joins}
     ) x GROUP BY ${[...columns, `"judge"`].join(", ")}`,
    params,
  );
  const value = (raw: string | number | null): LabelValue | null =>
    raw === null ? null : query.kind === "score" ? Number(raw) : String(raw);
  return rows.map((row) => ({
    values: query.labellers.map((_, i) => value(row[`v${i}`])),
    judge: value(row.judge),
    count: Number(row.count),
  }));
}

export type GoldCounts = {
  single: number;
  majority: number;
  median: number;
  adjudicated: number;
  /** Keys two or more people labelled with no majority and no adjudication: no gold label. */
  tied: number;
  /** Keys whose people did not all give the same value (the disagreement filter's rows). */
  disagreed: number;
};

export async function readGoldCounts(db: Db, datasetId: string, metric: string): Promise<GoldCounts> {
  const sql = sqlOf(db);
  const gold = await sql.all<{ gold: string; keys: number }>(
    `SELECT "gold", COUNT(*) AS "keys" FROM "HumanLabel" WHERE "datasetId" = ? AND "metric" = ? GROUP BY "gold"`,
    [datasetId, metric],
  );
  // A tie is a disagreement without a gold label: both read from the keys kept where people differ.
  const keys = await sql.get<{ tied: number; disagreed: number }>(
    `SELECT COUNT(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM "HumanLabel" h
         WHERE h."rowId" = d."rowId" AND h."metric" = d."metric" AND h."chunkPosition" = d."chunkPosition")) AS "tied",
       COUNT(*) AS "disagreed"
     FROM "LabelDisagreement" d WHERE d."datasetId" = @datasetId AND d."metric" = @metric`,
    { datasetId, metric },
  );
  const count = (name: string) => Number(gold.find((row) => row.gold === name)?.keys ?? 0);
  return {
    single: count("single"),
    majority: count("majority"),
    median: count("median"),
    adjudicated: count("adjudicated"),
    tied: Number(keys?.tied ?? 0),
    disagreed: Number(keys?.disagreed ?? 0),
  };
}

/** One person's label of a row, as the row page lists them. */
export type RowPersonLabel = {
  metric: string;
  chunkPosition: number;
  labeller: string;
  kind: string;
  rating: string | null;
  score: number | null;
  reason: string | null;
  labelledAt: string;
  source: string;
};

export async function readRowPersonLabels(db: Db, rowId: string): Promise<RowPersonLabel[]> {
  return sqlOf(db).all<RowPersonLabel>(
    `SELECT "metric", "chunkPosition", "labeller", "kind", "rating", "score", "reason", "labelledAt", "source"
     FROM "PersonLabel" WHERE "rowId" = ? ORDER BY "metric", "chunkPosition", "labelledAt"`,
    [rowId],
  );
}

/** A key's deciding label, as the row page shows it. */
export type RowAdjudication = {
  metric: string;
  chunkPosition: number;
  kind: string;
  rating: string | null;
  score: number | null;
  reason: string;
  decidedBy: string | null;
  decidedAt: string;
};

export async function readRowAdjudications(db: Db, rowId: string): Promise<RowAdjudication[]> {
  return sqlOf(db).all<RowAdjudication>(
    `SELECT "metric", "chunkPosition", "kind", "rating", "score", "reason", "decidedBy", "decidedAt"
     FROM "LabelAdjudication" WHERE "rowId" = ?`,
    [rowId],
  );
}

/** The dataset's labels version (moved by every label change): what cached agreement figures are keyed on. */
export async function readLabelsVersion(db: Db, datasetId: string): Promise<number> {
  const row = await sqlOf(db).get<{ version: number }>(
    `SELECT "labelsVersion" AS "version" FROM "Dataset" WHERE "id" = ?`,
    [datasetId],
  );
  return Number(row?.version ?? 0);
}

/**
 * Every person's own label of the given metrics on a run's export page, given on the response that run
 * judged (as readRunLabelsInRowRange's gold labels): the export's one column per labeller.
 */
export function readRunPersonLabelsInRowRange(
  db: Db,
  run: { id: string; datasetId: string },
  metrics: readonly string[],
  afterRowNumber: number,
  throughRowNumber: number,
): Promise<LabelWithRow[]> {
  const sql = sqlOf(db);
  return sql.all<LabelWithRow>(
    `SELECT r."rowNumber", r."requestId", l."rowId", l."metric", l."chunkPosition", l."kind", l."rating", l."score",
       l."reason", l."labeller" AS "labelledBy", l."statedBy", l."labelledAt", l."source", 0 AS "revision"
     FROM "DatasetRow" r JOIN "PersonLabel" l ON l."rowId" = r."id"
     LEFT JOIN "Generation" g ON g."runId" = @runId AND g."rowId" = r."id" AND g."trial" = 1
     LEFT JOIN (SELECT "generationModel" AS "gen" FROM "Run" WHERE "id" = @runId) run ON true
     WHERE r."datasetId" = @datasetId AND r."rowNumber" > @after AND r."rowNumber" <= @through
       AND ${sqlFragments(sql).inList(`l."metric"`, "@metrics")} AND NOT ${givenOnOtherResponse(RUN_JUDGED_HASH)}
     ORDER BY r."rowNumber", l."metric", l."chunkPosition"`,
    {
      runId: run.id,
      datasetId: run.datasetId,
      after: afterRowNumber,
      through: throughRowNumber,
      metrics: [...metrics],
    },
  );
}

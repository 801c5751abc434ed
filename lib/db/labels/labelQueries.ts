import type Database from "better-sqlite3";
import { z } from "zod";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { givenOnOtherResponse } from "./agreementQueries";
import { reservedByOther } from "./labelReservations";
import { sqlOf, type Db } from "../client";
import { preparedStatement } from "../store/directSqlite";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";

/**
 * Reading human labels. Every query binds a fixed handful of values: a
 * dataset's labels are read in row-number ranges, never by a list of ids.
 */
export type StoredLabel = {
  rowId: string;
  metric: string;
  /** -1 for a label of the whole row. */
  chunkPosition: number;
  kind: "rating" | "score";
  rating: "yes" | "no" | null;
  score: number | null;
  /** Why, in the labeller's words; null without one. */
  reason: string | null;
  labelledBy: string | null;
  /** An imported file's labelled_by when sign-in was on (the importer is labelledBy). */
  statedBy: string | null;
  labelledAt: string;
  source: string;
  revision: number;
};

const REQUEST_START_CHARS = 300;

const LABEL_FIELDS = `l."rowId", l."metric", l."chunkPosition", l."kind", l."rating", l."score", l."reason", l."labelledBy", l."statedBy", l."labelledAt", l."source", l."revision"`;

/** The hash of what the run judged on row r: its generation g's when it generates (run."gen"), else the row's own. */
/** The hash of the response a run judged on row r (alias g its generation, run its generationModel as gen). */
export const RUN_JUDGED_HASH = `(CASE WHEN run."gen" IS NOT NULL THEN g."responseHash" ELSE r."responseHash" END)`;

/** The dataset a run evaluates, or undefined for no such run: what saving a label checks its run against. */
export async function readRunDatasetId(db: Db, runId: string): Promise<string | undefined> {
  const run = await sqlOf(db).get<{ datasetId: string }>(`SELECT "datasetId" FROM "Run" WHERE "id" = ?`, [runId]);
  return run?.datasetId;
}

/** A row's current labels, for the drill-down, by metric then chunk. */
export function getRowLabels(db: Db, rowId: string): Promise<StoredLabel[]> {
  return sqlOf(db).all<StoredLabel>(
    `SELECT ${LABEL_FIELDS} FROM "HumanLabel" l WHERE l."rowId" = ? ORDER BY l."metric", l."chunkPosition"`,
    [rowId],
  );
}

/**
 * A row's current labels as one run sees them: each whole-row label with
 * whether it was given on another response than the one this run judged
 * (its hash differs from the run's generated response's, or the dataset
 * row's for a run of the dataset's responses), for the drill-down.
 */
export async function getRowLabelsOnRun(
  db: Db,
  runId: string,
  rowId: string,
): Promise<(StoredLabel & { otherResponse: boolean })[]> {
  const rows = await sqlOf(db).all<StoredLabel & { otherResponse: number }>(
    `SELECT ${LABEL_FIELDS},
       ${givenOnOtherResponse(RUN_JUDGED_HASH)} AS "otherResponse"
     FROM "HumanLabel" l JOIN "DatasetRow" r ON r."id" = l."rowId"
     LEFT JOIN "Generation" g ON g."runId" = @runId AND g."rowId" = l."rowId" AND g."trial" = 1
     LEFT JOIN (SELECT "generationModel" AS "gen" FROM "Run" WHERE "id" = @runId) run ON true
     WHERE l."rowId" = @rowId ORDER BY l."metric", l."chunkPosition"`,
    { runId, rowId },
  );
  return rows.map((row) => ({ ...row, otherResponse: row.otherResponse === 1 }));
}

export type LabelRevision = {
  metric: string;
  chunkPosition: number;
  revision: number;
  action: "set" | "cleared";
  kind: string | null;
  rating: string | null;
  score: number | null;
  labelledBy: string | null;
  statedBy: string | null;
  labelledAt: string;
  source: string;
};

/** Who labelled what on a row and when, newest first (bounded: a row's history is small, but the cap keeps it so). */
export function getRowLabelHistory(db: Db, rowId: string, limit = 200): Promise<LabelRevision[]> {
  return sqlOf(db).all<LabelRevision>(
    `SELECT "metric", "chunkPosition", "revision", "action", "kind", "rating", "score", "labelledBy", "statedBy", "labelledAt", "source"
     FROM "HumanLabelRevision" WHERE "rowId" = ? ORDER BY "labelledAt" DESC, "revision" DESC LIMIT ?`,
    [rowId, Math.min(Math.max(1, limit), 1000)],
  );
}

/** How many rows carry a label, per metric (a chunk metric counts a row once), in SQL. */
export function countLabelledRows(
  db: Db,
  datasetId: string,
): Promise<{ metric: string; rows: number; labels: number }[]> {
  return sqlOf(db).all<{ metric: string; rows: number; labels: number }>(
    `SELECT "metric", COUNT(DISTINCT "rowId") AS "rows", COUNT(*) AS "labels" FROM "HumanLabel" WHERE "datasetId" = ? GROUP BY "metric" ORDER BY "metric"`,
    [datasetId],
  );
}

export type LabelWithRow = StoredLabel & { rowNumber: number; requestId: string };

/**
 * A dataset's labels for rows whose numbers lie in (afterRowNumber,
 * throughRowNumber], in row order: how the label file pages through a
 * dataset with two bound range values. Every person's own label (several per
 * key where several people labelled), so an export imported back moves
 * nothing; an adjudication is the gold label's, not a person's, and is not
 * among them.
 */
export function readLabelsInRowRange(
  db: Db,
  datasetId: string,
  afterRowNumber: number,
  throughRowNumber: number,
): Promise<LabelWithRow[]> {
  return sqlOf(db).all<LabelWithRow>(
    `SELECT r."rowNumber", r."requestId", l."rowId", l."metric", l."chunkPosition", l."kind", l."rating", l."score",
       l."reason", CASE WHEN l."labeller" = '' THEN NULL ELSE l."labeller" END AS "labelledBy", l."statedBy",
       l."labelledAt", l."source", 0 AS "revision"
     FROM "DatasetRow" r JOIN "PersonLabel" l ON l."rowId" = r."id"
     WHERE r."datasetId" = ? AND r."rowNumber" > ? AND r."rowNumber" <= ?
     ORDER BY r."rowNumber", l."metric", l."chunkPosition", l."labeller"`,
    [datasetId, afterRowNumber, throughRowNumber],
  );
}

/**
 * The same for one run's export: only the labels given on the response that
 * run judged (a whole-row label's responseHash equal to the run's generated
 * response's when it generates, else the dataset row's), so `…/human_label`
 * stays blank where the label judged another response.
 */
export function readRunLabelsInRowRange(
  db: Db,
  run: { id: string; datasetId: string },
  afterRowNumber: number,
  throughRowNumber: number,
): Promise<LabelWithRow[]> {
  return sqlOf(db).all<LabelWithRow>(
    `SELECT r."rowNumber", r."requestId", ${LABEL_FIELDS}
     FROM "DatasetRow" r JOIN "HumanLabel" l ON l."rowId" = r."id"
     LEFT JOIN "Generation" g ON g."runId" = @runId AND g."rowId" = r."id" AND g."trial" = 1
     LEFT JOIN (SELECT "generationModel" AS "gen" FROM "Run" WHERE "id" = @runId) run ON true
     WHERE r."datasetId" = @datasetId AND r."rowNumber" > @after AND r."rowNumber" <= @through
       AND NOT ${givenOnOtherResponse(RUN_JUDGED_HASH)}
     ORDER BY r."rowNumber", l."metric", l."chunkPosition"`,
    { runId: run.id, datasetId: run.datasetId, after: afterRowNumber, through: throughRowNumber },
  );
}

/** The highest row number of a dataset (0 when empty): where range paging stops. */
export async function lastRowNumber(db: Db, datasetId: string): Promise<number> {
  const row = await sqlOf(db).get<{ last: number }>(
    `SELECT COALESCE(MAX("rowNumber"), 0) AS "last" FROM "DatasetRow" WHERE "datasetId" = ?`,
    [datasetId],
  );
  return row?.last ?? 0;
}

/** Every label of a dataset in row order, a range of rows at a time. */
export async function* streamDatasetLabels(db: Db, datasetId: string, rowsPerPage = 500): AsyncGenerator<LabelWithRow> {
  const last = await lastRowNumber(db, datasetId);
  for (let after = 0; after < last; after += rowsPerPage) {
    for (const label of await readLabelsInRowRange(db, datasetId, after, after + rowsPerPage)) yield label;
  }
}

export type RowKey = { rowId: string; rowNumber: number; requestId: string; retrievedChunkCount: number };

/** Rows of a dataset by row-number range: what an import reads to map request_id to rows. */
export function readRowKeysInRange(
  db: Db,
  datasetId: string,
  afterRowNumber: number,
  throughRowNumber: number,
): Promise<RowKey[]> {
  return sqlOf(db).all<RowKey>(
    `SELECT "id" AS "rowId", "rowNumber", "requestId", "retrievedChunkCount" FROM "DatasetRow"
     WHERE "datasetId" = ? AND "rowNumber" > ? AND "rowNumber" <= ? ORDER BY "rowNumber"`,
    [datasetId, afterRowNumber, throughRowNumber],
  );
}

/** Most request_ids one lookup takes: an import's batch of records, each id perhaps also without a leading quote. */
export const MAX_REQUEST_IDS = 1000;

/**
 * The rows of a dataset with these request_ids (the unique key on both), by
 * request_id: what an import checks a batch of records against. The ids go
 * as one list value, and a batch is bounded (MAX_REQUEST_IDS).
 */
export async function findRowKeysByRequestIds(
  db: Db,
  datasetId: string,
  requestIds: readonly string[],
): Promise<Map<string, RowKey>> {
  if (requestIds.length > MAX_REQUEST_IDS)
    throw new Error(`at most ${MAX_REQUEST_IDS} request_ids are looked up at once`);
  if (requestIds.length === 0) return new Map();
  const sql = sqlOf(db);
  const rows = await sql.all<RowKey>(
    `SELECT "id" AS "rowId", "rowNumber", "requestId", "retrievedChunkCount" FROM "DatasetRow"
     WHERE "datasetId" = ? AND ${sqlFragments(sql).inList(`"requestId"`)}`,
    [datasetId, [...new Set(requestIds)]],
  );
  return new Map(rows.map((row) => [row.requestId, row]));
}

export type QueueUnitRow = {
  rowId: string;
  rowNumber: number;
  chunkPosition: number;
  verdict: "yes" | "no";
  labelled: number;
  /** 1 when the current label was given on another response than this run judged (it counts for nothing here). */
  elsewhere: number;
  /** The request's first characters (the queue shows its first line). */
  requestStart: string;
  /** People's labels of the unit, whether the viewer gave one, and whether another labeller holds its last slot. */
  labels: number;
  mine: number | boolean;
  reserved: number | boolean;
};

/** Enough of the request for its first line in the queue, without reading a long request whole. */
const REQUEST_START = `substr(r."requestText", 1, ${REQUEST_START_CHARS})`;

/**
 * One page of what the labelling queue chooses from: the run's verdicts on a
 * metric (done, with a verdict), in (row number, chunk) order after a key,
 * each with whether it already has a current label. Score judges' verdicts
 * are pass/fail at the judgment's threshold (0.5 when none was stored).
 */
export function readQueueUnitsPage(
  db: Db,
  run: { id: string },
  metric: string,
  options: {
    perChunk: boolean;
    score: boolean;
    after: { rowNumber: number; chunkPosition: number };
    limit: number;
    /** Who asks: their own labels and others' claims on last slots (labelReservations.ts) are read for them. */
    viewer?: string;
  },
): Promise<QueueUnitRow[]> {
  const sql = sqlOf(db);
  const people = (position: string) => {
    const key = `p."rowId" = r."id" AND p."metric" = @metric AND p."chunkPosition" = ${position}`;
    return `(SELECT COUNT(*) FROM "PersonLabel" p WHERE ${key}) AS "labels",
       EXISTS (SELECT 1 FROM "PersonLabel" p WHERE ${key} AND p."labeller" = @viewer) AS "mine",
       ${reservedByOther(sqlFragments(sql).storeTime(), `r."id"`, "@metric", position)} AS "reserved"`;
  };
  const bound = {
    viewer: options.viewer ?? "",
    runId: run.id,
    metric,
    afterRow: options.after.rowNumber,
    afterChunk: options.after.chunkPosition,
    limit: Math.min(Math.max(1, options.limit), 5000),
  };
  if (options.perChunk) {
    return sqlOf(db).all<QueueUnitRow>(
      `SELECT r."id" AS "rowId", r."rowNumber", c."position" AS "chunkPosition", c."rating" AS "verdict", l."id" IS NOT NULL AS "labelled",
         0 AS "elsewhere", ${REQUEST_START} AS "requestStart", ${people(`c."position"`)}
       FROM "JudgmentItem" j
       JOIN "DatasetRow" r ON r."id" = j."rowId"
       JOIN "ChunkJudgment" c ON c."judgmentId" = j."id" AND c."rating" IS NOT NULL
       LEFT JOIN "HumanLabel" l ON l."rowId" = j."rowId" AND l."metric" = j."metric" AND l."chunkPosition" = c."position"
       WHERE j."runId" = @runId AND j."metric" = @metric AND j."trial" = 1 AND j."status" = 'done'
         AND (r."rowNumber" > @afterRow OR (r."rowNumber" = @afterRow AND c."position" > @afterChunk))
       ORDER BY r."rowNumber", c."position" LIMIT @limit`,
      bound,
    );
  }
  const verdict = options.score
    ? `CASE WHEN j."score" >= COALESCE(j."threshold", 0.5) THEN 'yes' ELSE 'no' END`
    : `j."rating"`;
  const hasVerdict = options.score ? `j."score" IS NOT NULL` : `j."rating" IS NOT NULL`;
  return sqlOf(db).all<QueueUnitRow>(
    `SELECT r."id" AS "rowId", r."rowNumber", -1 AS "chunkPosition", ${verdict} AS "verdict", l."id" IS NOT NULL AS "labelled",
       (l."id" IS NOT NULL AND ${givenOnOtherResponse(RUN_JUDGED_HASH)}) AS "elsewhere",
       ${REQUEST_START} AS "requestStart", ${people("-1")}
     FROM "JudgmentItem" j
     JOIN "DatasetRow" r ON r."id" = j."rowId"
     LEFT JOIN "HumanLabel" l ON l."rowId" = j."rowId" AND l."metric" = j."metric" AND l."chunkPosition" = -1
     LEFT JOIN "Generation" g ON g."runId" = @runId AND g."rowId" = j."rowId" AND g."trial" = 1
     LEFT JOIN (SELECT "generationModel" AS "gen" FROM "Run" WHERE "id" = @runId) run ON true
     WHERE j."runId" = @runId AND j."metric" = @metric AND j."trial" = 1 AND j."status" = 'done' AND ${hasVerdict}
       AND r."rowNumber" > @afterRow
     ORDER BY r."rowNumber" LIMIT @limit`,
    bound,
  );
}

export type DatasetRunJudges = {
  customJudges: { assessmentName: string; assessmentType: string }[];
  gEvalJudges: { name: string; threshold: number; evaluationParams: string[] }[];
};

const storedGEvalJudgesSchema = z.array(gEvalDefinitionSchema);

/**
 * The custom and G-Eval judges that any run on a dataset defines, each name
 * once: what a label on such a judge is checked against (they are not in the
 * catalogue). Custom judges come from their table; G-Eval definitions from
 * the runs' stored config (only that member is read and decoded). When two
 * runs give a G-Eval judge different thresholds, the first run's is kept:
 * the threshold only describes the label here, agreement uses each
 * judgment's own.
 */
export function readDatasetRunJudges(db: Db, datasetId: string): Promise<DatasetRunJudges> {
  return readRunJudges(sqlOf(db), `r."datasetId" = ?`, datasetId);
}

/** The custom and G-Eval judges one run defines (what its labelling queue may be asked for). */
export function readOneRunJudges(db: Db, runId: string): Promise<DatasetRunJudges> {
  return readRunJudges(sqlOf(db), `r."id" = ?`, runId);
}

/** A dataset's run judges on an open SQLite connection (the content-hash data step of the SQLite history has no Db handle). */
export function readDatasetRunJudgesOn(sqlite: Database.Database, datasetId: string): DatasetRunJudges {
  const where = `r."datasetId" = ?`;
  const customJudges = preparedStatement(sqlite, customJudgesSql(where)).all(datasetId) as CustomJudgeRow[];
  const stored = preparedStatement(
    sqlite,
    gEvalJudgesSql(where, (column, key) => `json_extract(${column}, '$.${key}')`),
  ).all(datasetId) as { judges: string }[];
  return runJudgesOf(customJudges, stored);
}

type CustomJudgeRow = { assessmentName: string; assessmentType: string };

const customJudgesSql = (where: string) =>
  `SELECT DISTINCT c."assessmentName", c."assessmentType" FROM "CustomJudge" c JOIN "Run" r ON r."id" = c."runId"
   WHERE ${where} ORDER BY c."assessmentType", c."assessmentName"`;

/** Only the config's gEvalJudges member is read out of each run's stored config (a JSON text). */
const gEvalJudgesSql = (where: string, jsonText: (column: string, key: string) => string) =>
  `SELECT ${jsonText(`r."config"`, "gEvalJudges")} AS "judges" FROM "Run" r
   WHERE ${where} AND ${jsonText(`r."config"`, "gEvalJudges")} IS NOT NULL ORDER BY r."createdAt"`;

async function readRunJudges(sql: SqlRunner, where: string, value: string): Promise<DatasetRunJudges> {
  const customJudges = await sql.all<CustomJudgeRow>(customJudgesSql(where), [value]);
  const stored = await sql.all<{ judges: string }>(gEvalJudgesSql(where, sqlFragments(sql).jsonText), [value]);
  return runJudgesOf(customJudges, stored);
}

function runJudgesOf(customJudges: CustomJudgeRow[], stored: { judges: string }[]): DatasetRunJudges {
  const gEvalJudges = new Map<string, DatasetRunJudges["gEvalJudges"][number]>();
  for (const { judges } of stored) {
    const parsed = storedGEvalJudgesSchema.safeParse(JSON.parse(judges));
    if (!parsed.success) continue;
    for (const judge of parsed.data)
      if (!gEvalJudges.has(judge.name))
        gEvalJudges.set(judge.name, {
          name: judge.name,
          threshold: judge.threshold,
          evaluationParams: [...judge.evaluationParams],
        });
  }
  return { customJudges, gEvalJudges: [...gEvalJudges.values()] };
}

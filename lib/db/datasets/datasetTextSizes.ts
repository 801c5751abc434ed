import type { RowInput } from "@/lib/contract/metricCatalog";
import { sqlOf, type Db } from "../client";
import { INPUT_SQL } from "./datasetQueries";

/** The characters of a row's own text a judge prompt carries: request, response and ground truth. */
export function rowTextCharsSql(row: string): string {
  return `LENGTH(${row}."requestText") + COALESCE(LENGTH(${row}."response"), 0) + COALESCE(LENGTH(${row}."expectedResponse"), 0) + COALESCE(LENGTH(${row}."expectedFacts"), 0)`;
}
export const ROW_TEXT_CHARS_SQL = rowTextCharsSql("r");
/** Per row, the characters of its retrieved chunks (a subquery to join on "rowId"). */
export const RETRIEVED_CHUNK_CHARS_SQL = `SELECT "rowId", SUM(LENGTH(COALESCE("content", ''))) AS "chars" FROM "ContextChunk" WHERE "kind" = 'retrieved' GROUP BY "rowId"`;

/** A dataset's rows that carry the same inputs, with the text a judge prompt would carry for them. */
export type RowTextProfile = {
  /** The inputs every row of this group carries (lib/metrics/rowEligibility.ts rowHasInput). */
  inputs: RowInput[];
  rows: number;
  /** Request, response, ground truth and retrieved chunk characters, summed over the group's rows. */
  chars: number;
  /** Retrieved chunks, summed over the group's rows. */
  chunks: number;
  /** The exchanges of the conversations anchored on the group's rows (what per-turn judges count). */
  exchanges: number;
  /** The requests' characters: what a generating run sends the model. */
  requestChars: number;
};

const INPUTS = Object.keys(INPUT_SQL) as RowInput[];

/**
 * A dataset's rows grouped by which inputs they carry (a handful of groups: rows of one file tend to
 * look alike), each group with its row count and the characters and chunks a judge prompt would carry,
 * in one aggregate query. The run form sums the groups a judge's requirements allow, so its estimate
 * counts the same rows and text as the planned run's (lib/db/runs/pendingWorkSizes.ts) without planning one.
 */
/** A conversation anchor's exchanges (a user turn and its answer): half its turns, rounded up; 0 on other rows. */
export const EXCHANGES_SQL = (row: string) =>
  `CASE WHEN ${row}."conversationAnchor" = TRUE THEN (COALESCE(${row}."conversationTurns", 0) + 1) / 2 ELSE 0 END`;

export async function getDatasetTextProfiles(db: Db, datasetId: string): Promise<RowTextProfile[]> {
  const flags = INPUTS.map((input, i) => `CASE WHEN ${INPUT_SQL[input]} THEN 1 ELSE 0 END AS "f${i}"`);
  const rows = await sqlOf(db).all<Record<string, number | null>>(
    `SELECT ${flags.join(", ")}, COUNT(*) AS "rowCount",
       COALESCE(SUM(${rowTextCharsSql(`"DatasetRow"`)} + COALESCE(c."chars", 0)), 0) AS "chars",
       COALESCE(SUM("DatasetRow"."retrievedChunkCount"), 0) AS "chunks",
       COALESCE(SUM(${EXCHANGES_SQL(`"DatasetRow"`)}), 0) AS "exchanges",
       COALESCE(SUM(LENGTH("DatasetRow"."requestText")), 0) AS "requestChars"
     FROM "DatasetRow"
     LEFT JOIN (
       SELECT "rowId", SUM(LENGTH(COALESCE("content", ''))) AS "chars" FROM "ContextChunk"
       WHERE "kind" = 'retrieved' AND "rowId" IN (SELECT "id" FROM "DatasetRow" WHERE "datasetId" = ?) GROUP BY "rowId"
     ) c ON c."rowId" = "DatasetRow"."id"
     WHERE "DatasetRow"."datasetId" = ?
     GROUP BY ${INPUTS.map((_, i) => `"f${i}"`).join(", ")}`,
    [datasetId, datasetId],
  );
  return rows.map((row) => ({
    inputs: INPUTS.filter((_, i) => Number(row[`f${i}`]) === 1),
    rows: Number(row.rowCount ?? 0),
    chars: Number(row.chars ?? 0),
    chunks: Number(row.chunks ?? 0),
    exchanges: Number(row.exchanges ?? 0),
    requestChars: Number(row.requestChars ?? 0),
  }));
}

import { z } from "zod";
import {
  type InputCoverage,
  addSignature,
  coverageOfSignatures,
  readStoredSignatures,
  SIGNATURE_COLUMNS,
  SIGNATURE_INPUTS,
  storeSignatures,
  type InputSignatureCounts,
  type SignatureColumn,
} from "@/lib/contract/inputSignatures";
import type { RowInput } from "@/lib/contract/metricCatalog";
import { WHITESPACE } from "@/lib/contract/rowInputs";
import { sqlOf, type Db } from "../client";
import { containsIgnoringCase } from "../store/sqlFragments";
import type { Prisma } from "../generated/sqlite/client";
import type { DatasetRowPageQuery, DatasetRowSort } from "@/lib/contract/rowQueries";
import { readPage, type Page } from "../pagination";

export async function listDatasets(db: Db) {
  return db.dataset.findMany({
    where: { status: "ready" },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      sourceFilename: true,
      sourceFormat: true,
      rowCount: true,
      createdAt: true,
      createdById: true,
      _count: { select: { runs: true } },
    },
  });
}

/** Whether the store holds any dataset, importing ones included. */
export async function hasAnyDataset(db: Db): Promise<boolean> {
  return (await db.dataset.findFirst({ select: { id: true } })) !== null;
}

export async function getDataset(db: Db, datasetId: string) {
  const dataset = await db.dataset.findFirst({ where: { id: datasetId, status: "ready" } });
  if (!dataset) return null;
  return { ...dataset, warnings: z.array(z.string()).catch([]).parse(JSON.parse(dataset.warnings)) };
}

/** How many runs a dataset has, and how many of them are still pending or running (deleting waits for those). */
export async function countDatasetRuns(db: Db, datasetId: string): Promise<{ total: number; inProgress: number }> {
  const [total, inProgress] = await Promise.all([
    db.run.count({ where: { datasetId } }),
    db.run.count({ where: { datasetId, status: { in: ["pending", "running"] } } }),
  ]);
  return { total, inProgress };
}

/** A constant as a SQL string literal. */
function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** SQL condition per input, on an unaliased "DatasetRow"; constants only, never user text. */
export const INPUT_SQL: Record<RowInput, string> = {
  response: `"hasResponse" = TRUE`,
  response_or_empty: `("hasResponse" = TRUE OR "hasEmptyResponse" = TRUE)`,
  expected_response_or_facts: `("hasExpectedResponse" = TRUE OR "hasExpectedFacts" = TRUE)`,
  expected_response: `"hasExpectedResponse" = TRUE`,
  // Every retrieved chunk has content (lib/metrics/rowEligibility.ts): a chunk with only a doc_uri makes the content judges skip the row.
  retrieved_context_content: `"hasRetrievedContent" = TRUE AND NOT EXISTS (SELECT 1 FROM "ContextChunk" c WHERE c."rowId" = "DatasetRow"."id" AND c."kind" = 'retrieved' AND TRIM(COALESCE(c."content", ''), ${sqlString(WHITESPACE)}) = '')`,
  retrieved_context_doc_uri: `"hasRetrievedContext" = TRUE`,
  expected_retrieved_context: `"hasExpectedRetrievedContext" = TRUE`,
  // Some expected chunk has content (lib/metrics/rowEligibility.ts hasExpectedContextContent).
  expected_context_content: `EXISTS (SELECT 1 FROM "ContextChunk" c WHERE c."rowId" = "DatasetRow"."id" AND c."kind" = 'expected' AND TRIM(COALESCE(c."content", ''), ${sqlString(WHITESPACE)}) <> '')`,
  trace_tokens: `"totalTokenCount" IS NOT NULL`,
  trace_latency: `"latencySeconds" IS NOT NULL`,
  tool_calls: `"hasToolCalls" = TRUE`,
  expected_tool_calls: `"hasExpectedToolCalls" = TRUE`,
  trace: `"hasTrace" = TRUE`,
  conversation: `"conversationAnchor" = TRUE`,
};

/**
 * Which inputs the rows carry, on how many rows each metric can run, and how many rows filled each column:
 * from the signature counts the upload kept on the dataset. A dataset imported before they were kept has
 * them counted from its rows once (one aggregate query over the rows and their chunks) and kept then.
 */
export async function getInputCoverage(
  db: Db,
  datasetId: string,
): Promise<InputCoverage & { columns: Record<string, number> }> {
  const dataset = await db.dataset.findUnique({
    where: { id: datasetId },
    select: { inputCoverage: true, status: true },
  });
  const kept = readStoredSignatures(dataset?.inputCoverage ?? null);
  if (kept) return coverageOfSignatures(kept);
  const counted = await countInputSignatures(db, datasetId);
  // Only a finished import's rows are final.
  if (dataset?.status === "ready")
    await db.dataset.updateMany({
      where: { id: datasetId, status: "ready" },
      data: { inputCoverage: storeSignatures(counted) },
    });
  return coverageOfSignatures(counted);
}

/** The rows' signatures counted in SQL: the same bits as signatureOf, from the stored flags and chunks. */
export async function countInputSignatures(db: Db, datasetId: string): Promise<InputSignatureCounts> {
  const columnSql: Record<SignatureColumn, string> = {
    response: `"responseSource" = 'column'`,
    expected_facts: `"hasExpectedFacts" = TRUE`,
    expected_response: `"hasExpectedResponse" = TRUE`,
    retrieved_context: `"hasRetrievedContext" = TRUE`,
    expected_retrieved_context: `"hasExpectedRetrievedContext" = TRUE`,
    trace: `"hasTrace" = TRUE`,
    tool_calls: `"toolCallsSource" = 'column'`,
    expected_tool_calls: `"hasExpectedToolCalls" = TRUE`,
  };
  const conditions = [
    ...SIGNATURE_INPUTS.map((input) => INPUT_SQL[input]),
    ...SIGNATURE_COLUMNS.map((c) => columnSql[c]),
  ];
  const signature = conditions.map((sql, i) => `(CASE WHEN ${sql} THEN ${2 ** i} ELSE 0 END)`).join(" + ");
  const groups = await sqlOf(db).all<{ signature: number; rows: number }>(
    `SELECT "signature", COUNT(*) AS "rows" FROM (SELECT ${signature} AS "signature" FROM "DatasetRow" WHERE "datasetId" = ?) s
     GROUP BY "signature"`,
    [datasetId],
  );
  const counts: InputSignatureCounts = {};
  for (const group of groups) addSignature(counts, Number(group.signature), Number(group.rows));
  return counts;
}

const NULLABLE_SORTS = new Set<DatasetRowSort>(["latencySeconds", "totalTokenCount"]);

export type DatasetRowSummary = Awaited<ReturnType<typeof listDatasetRows>>["items"][number];

/** One page of rows, sorted and searched in SQL; the search ignores case on both stores. */
export async function listDatasetRows(db: Db, datasetId: string, query: DatasetRowPageQuery) {
  const q = query.q.trim();
  const contains = containsIgnoringCase(sqlOf(db), q);
  const where: Prisma.DatasetRowWhereInput = {
    datasetId,
    ...(q
      ? {
          OR: [
            { requestText: contains },
            { response: contains },
            { requestId: contains },
            { expectedResponse: contains },
          ],
        }
      : {}),
  };
  const page = await readPage(
    query,
    // Without a search the count is the dataset's kept row count, not a count of its rows' index entries.
    async () =>
      q
        ? db.datasetRow.count({ where })
        : ((await db.dataset.findUnique({ where: { id: datasetId }, select: { rowCount: true } }))?.rowCount ?? 0),
    (skip, take) =>
      db.datasetRow.findMany({
        where,
        orderBy: [
          { [query.sort]: NULLABLE_SORTS.has(query.sort) ? { sort: query.dir, nulls: "last" } : query.dir },
          { rowNumber: "asc" },
        ],
        skip,
        take,
        select: {
          id: true,
          rowNumber: true,
          requestId: true,
          requestFormat: true,
          requestText: true,
          response: true,
          responseSource: true,
          hasExpectedResponse: true,
          hasExpectedFacts: true,
          hasExpectedRetrievedContext: true,
          hasTrace: true,
          retrievedChunkCount: true,
          latencySeconds: true,
          totalTokenCount: true,
        },
      }),
  );
  return {
    ...page,
    items: page.items.map((item) => ({
      ...item,
      response: clip(item.response, 300),
      requestText: clip(item.requestText, 300),
    })),
  };
}

export async function getDatasetRow(db: Db, datasetId: string, rowId: string) {
  return db.datasetRow.findFirst({
    where: { id: rowId, datasetId, dataset: { status: "ready" } },
    include: { chunks: { orderBy: [{ kind: "asc" }, { position: "asc" }] } },
  });
}

/** Previous and next rows by row number, for keyboard and pager navigation in the detail view. */
export async function getNeighbourRows(db: Db, datasetId: string, rowNumber: number) {
  const [previous, next] = await Promise.all([
    db.datasetRow.findFirst({
      where: { datasetId, rowNumber: { lt: rowNumber } },
      orderBy: { rowNumber: "desc" },
      select: { id: true },
    }),
    db.datasetRow.findFirst({
      where: { datasetId, rowNumber: { gt: rowNumber } },
      orderBy: { rowNumber: "asc" },
      select: { id: true },
    }),
  ]);
  return { previousId: previous?.id ?? null, nextId: next?.id ?? null };
}

function clip(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  return `${text.slice(0, max)}…`;
}

export type { Page };

/** How many rows and chunk rows a dataset stored (the upload benchmark checks nothing was lost). */
export async function countDatasetContents(db: Db, datasetId: string): Promise<{ rows: number; chunks: number }> {
  const [rows, chunks] = await Promise.all([
    db.datasetRow.count({ where: { datasetId } }),
    db.contextChunk.count({ where: { row: { datasetId } } }),
  ]);
  return { rows, chunks };
}

/** Every row of a dataset in row order, its id and number (for seeding benchmark runs straight into the tables). */
export async function listDatasetRowNumbers(db: Db, datasetId: string): Promise<{ id: string; rowNumber: number }[]> {
  const rows: { id: string; rowNumber: number }[] = [];
  for await (const page of datasetRowPages(db, datasetId, 5000)) rows.push(...page);
  return rows;
}

/** A dataset's row ids and numbers in row order, `take` at a time, by key: a million rows never sit in memory at once. */
export async function* datasetRowPages(
  db: Db,
  datasetId: string,
  take: number,
): AsyncGenerator<{ id: string; rowNumber: number }[]> {
  for (let after = 0; ;) {
    const rows = await db.datasetRow.findMany({
      where: { datasetId, rowNumber: { gt: after } },
      orderBy: { rowNumber: "asc" },
      take,
      select: { id: true, rowNumber: true },
    });
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].rowNumber;
  }
}

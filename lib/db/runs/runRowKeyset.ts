import type { RunRowPageQuery } from "@/lib/contract/rowQueries";
import { clampPage, pageCountOf } from "@/lib/contract/pagination";
import { sqlOf, type Db } from "../client";
import type { SqlRunner } from "../store/sqlRunner";
import type { Page } from "../pagination";
import { keyedSelect, keyedTotal, rowIndexOf, searchOf, type KeyedOrder, type RowIndex } from "./runRowIndex";

export type KeyedRow = {
  id: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  response: string | null;
};

/** The page's columns, the row's text read where the index keeps it (see RowIndex.rowsAlias). */
const pageColumns = (index: RowIndex) => {
  const r = index.rowsAlias;
  return `${r}."id" AS "id", t."rowNumber" AS "rowNumber", ${r}."requestId" AS "requestId",
  ${r}."requestText" AS "requestText", ${r}."response" AS "response"`;
};

type Reader = { sql: SqlRunner; index: RowIndex; search: ReturnType<typeof searchOf>; order: KeyedOrder };

const reversed = (order: KeyedOrder): KeyedOrder => (order === "asc" ? "desc" : "asc");

/** Rows from `key` on in `order` (exclusive or inclusive), at most `take`, returned in that order. */
function readFrom(reader: Reader, order: KeyedOrder, key: number | null, inclusive: boolean, take: number) {
  const op = key === null ? undefined : `${order === "asc" ? ">" : "<"}${inclusive ? "=" : ""}`;
  return reader.sql.all<KeyedRow>(
    keyedSelect(reader.index, reader.search, { columns: pageColumns(reader.index), order, op }),
    {
      ...reader.index.bound,
      ...(reader.search?.bound ?? {}),
      ...(key === null ? {} : { key }),
      take,
    },
  );
}

/**
 * The row number `skip` entries into the filter in `order`: a walk over the
 * narrow index alone (no row is read), or null past the end.
 */
async function keyAt(reader: Reader, order: KeyedOrder, skip: number): Promise<number | null> {
  const found = await reader.sql.get<{ rowNumber: number }>(
    keyedSelect(reader.index, reader.search, {
      columns: `t."rowNumber" AS "rowNumber"`,
      order,
      offset: true,
      rows: false,
    }),
    { ...reader.index.bound, ...(reader.search?.bound ?? {}), take: 1, skip, reach: skip + 1 },
  );
  return found ? Number(found.rowNumber) : null;
}

/**
 * Page `page` by its number (a bookmark, the way back from a row, First and
 * Last): the page's first key found by walking the narrow index from the
 * nearer end (a tally gives the size, so the last pages cost what the first
 * do), then its rows read by key.
 */
async function readPageNumber(reader: Reader, page: number, pageSize: number, total: number): Promise<KeyedRow[]> {
  const skip = (page - 1) * pageSize;
  const onPage = Math.min(pageSize, total - skip);
  if (onPage <= 0) return [];
  if (skip === 0) return readFrom(reader, reader.order, null, false, pageSize);
  // With a search the total is a count of the matches, exact as well; the walk from the end stays valid.
  if (skip * 2 > total) {
    const lastKey = await keyAt(reader, reversed(reader.order), total - skip - onPage);
    if (lastKey === null) return [];
    return (await readFrom(reader, reversed(reader.order), lastKey, true, onPage)).reverse();
  }
  const firstKey = await keyAt(reader, reader.order, skip);
  return firstKey === null ? [] : readFrom(reader, reader.order, firstKey, true, pageSize);
}

/**
 * One page of a plain filter (all, failed, errored, passed; on any metric or
 * one) in row order, read by key through the filter's narrow index
 * (runRowIndex): Next carries the page's last row number (after), Previous its
 * first (before), so page 2,000 costs what page 1 does. A URL with only a page
 * number walks the index to it. The count is the kept tally's.
 */
export async function listKeyedRows(
  db: Db,
  run: { id: string; datasetId: string },
  query: RunRowPageQuery,
): Promise<Page<KeyedRow>> {
  const sql = sqlOf(db);
  const reader: Reader = { sql, index: rowIndexOf(run, query), search: searchOf(sql, query), order: query.dir };
  const { pageSize } = query;
  const total = await keyedTotal(sql, reader.index, reader.search);
  const pageCount = pageCountOf(total, pageSize);
  let page = clampPage(query.page, total, pageSize);
  let items: KeyedRow[] | null = null;
  if (query.after !== undefined && query.page <= pageCount) {
    items = await readFrom(reader, reader.order, query.after, false, pageSize);
    // A cursor past the end (the rows changed, an edited link) shows the last page instead.
    if (items.length === 0) items = null;
  } else if (query.before !== undefined && query.page <= pageCount) {
    const before = (await readFrom(reader, reversed(reader.order), query.before, false, pageSize)).reverse();
    // Fewer rows than a page before the cursor: the link's page number no longer holds, start over.
    if (before.length === pageSize) items = before;
    else page = 1;
  }
  if (items === null) {
    if (query.after !== undefined) page = pageCount;
    items = await readPageNumber(reader, page, pageSize, total);
  }
  const cursor =
    items.length > 0 ? { before: items[0].rowNumber, after: items[items.length - 1].rowNumber } : undefined;
  return { items, total, page, pageSize, pageCount, cursor };
}

/** The statement that reads a page after a key, with its values: what the tests EXPLAIN (the plan is the point). */
export function keyedPageStatement(
  db: Db,
  run: { id: string; datasetId: string },
  query: RunRowPageQuery,
  after: number,
) {
  const sql = sqlOf(db);
  const index = rowIndexOf(run, query);
  const search = searchOf(sql, query);
  const op = query.dir === "asc" ? ">" : "<";
  return {
    statement: keyedSelect(index, search, { columns: pageColumns(index), order: query.dir, op }),
    params: { ...index.bound, ...(search?.bound ?? {}), key: after, take: query.pageSize },
  };
}

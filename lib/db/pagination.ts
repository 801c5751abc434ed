import { clampPage, pageCountOf, type Pagination } from "@/lib/contract/pagination";

/** One page of a server-paged table; the page and its size come from the URL (lib/urlState/pagination). */
export type Page<T> = {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** A table read by key: the row keys its Previous (before the first row) and Next (after the last) carry. */
  cursor?: PageCursor;
};
export type PageCursor = { before: number; after: number };

/** A page of `total` items; a page past the end is reported as the last page (whose items the caller read). */
export function toPage<T>(items: T[], total: number, pagination: Pagination): Page<T> {
  return {
    items,
    total,
    page: clampPage(pagination.page, total, pagination.pageSize),
    pageSize: pagination.pageSize,
    pageCount: pageCountOf(total, pagination.pageSize),
  };
}

/**
 * Reads one page of a table: the count and the asked page in parallel (the
 * common case costs no extra round trip), and when the URL asked past the
 * last page, the last page instead, so the rows agree with the page shown.
 */
export async function readPage<T>(
  pagination: Pagination,
  count: () => Promise<number>,
  rowsAt: (skip: number, take: number) => Promise<T[]>,
): Promise<Page<T>> {
  const { page, pageSize } = pagination;
  const [total, items] = await Promise.all([count(), rowsAt((page - 1) * pageSize, pageSize)]);
  const shown = clampPage(page, total, pageSize);
  if (shown === page) return toPage(items, total, pagination);
  return toPage(await rowsAt((shown - 1) * pageSize, pageSize), total, { page: shown, pageSize });
}

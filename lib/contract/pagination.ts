/** One pagination with hard caps, shared by every server-paged table: the URL's schema (lib/urlState) and the store. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** The largest page any table asks for; repository functions refuse more. */
export const MAX_PAGE_SIZE = Math.max(...PAGE_SIZES);

/** Which page of a table, and how many rows a page holds (one of PAGE_SIZES). */
export type Pagination = { page: number; pageSize: number };

/** How many pages `total` items fill: at least one, so an empty table reads "page 1 of 1". */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The page a table shows for the page its URL asks for: that page, or the last
 * one when the URL asks past the end (an old link, a shrunken filter), so the
 * page number, the range text and the rows shown always agree.
 */
export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(page, pageCountOf(total, pageSize));
}

import type { Pagination } from "@/lib/urlState/pagination";

/** One page of a server-paged table; the page and its size come from the URL (lib/urlState/pagination). */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number; pageCount: number };

export function toPage<T>(items: T[], total: number, pagination: Pagination): Page<T> {
  return {
    items,
    total,
    page: pagination.page,
    pageSize: pagination.pageSize,
    pageCount: Math.max(1, Math.ceil(total / pagination.pageSize)),
  };
}

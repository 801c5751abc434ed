import { z } from "zod";

/** One pagination schema with hard caps, shared by every server-paged table. */
export const PAGE_SIZES = [25, 50, 100] as const;

export const paginationSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().refine((n) => (PAGE_SIZES as readonly number[]).includes(n)).catch(25),
});

export type Pagination = z.infer<typeof paginationSchema>;

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number; pageCount: number };

export function toPage<T>(items: T[], total: number, pagination: Pagination): Page<T> {
  return { items, total, page: pagination.page, pageSize: pagination.pageSize, pageCount: Math.max(1, Math.ceil(total / pagination.pageSize)) };
}

import { z } from "zod";

/** One pagination schema with hard caps, shared by every server-paged table. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** The largest page any table asks for; repository functions refuse more. */
export const MAX_PAGE_SIZE = Math.max(...PAGE_SIZES);

export const paginationSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .catch(25),
});

export type Pagination = z.infer<typeof paginationSchema>;

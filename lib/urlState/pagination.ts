import { z } from "zod";
import { PAGE_SIZES, type Pagination } from "@/lib/contract/pagination";

/** One pagination schema with hard caps, shared by every server-paged table (its values: lib/contract/pagination.ts). */
export const paginationSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .catch(25),
}) satisfies z.ZodType<Pagination>;

import { z } from "zod";
import { DATASET_ROW_SORTS, type DatasetRowQuery } from "./datasetQueries";
import { paginationSchema } from "./pagination";

/** The dataset rows table's URL state (page, size, sort, direction, search), parsed with safe defaults. */
export const datasetRowQuerySchema = paginationSchema.extend({
  sort: z.enum(DATASET_ROW_SORTS).catch("rowNumber"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  q: z.string().max(200).catch(""),
});

export function parseDatasetRowQuery(searchParams: Record<string, string | string[] | undefined>): DatasetRowQuery {
  const flat = Object.fromEntries(Object.entries(searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  return datasetRowQuerySchema.parse({ page: flat.page, pageSize: flat.pageSize, sort: flat.sort, dir: flat.dir, q: flat.q ?? "" });
}

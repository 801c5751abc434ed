import { z } from "zod";
import { DATASET_ROW_SORTS, type DatasetRowPageQuery } from "@/lib/contract/rowQueries";
import { paginationSchema } from "./pagination";
import { firstValues, type SearchParams } from "./searchParams";

/** The dataset rows table's URL state (page, size, sort, direction, search), parsed with safe defaults. */
export const datasetRowQuerySchema = paginationSchema.extend({
  sort: z.enum(DATASET_ROW_SORTS).catch("rowNumber"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  q: z.string().max(200).catch(""),
}) satisfies z.ZodType<DatasetRowPageQuery>;
export type DatasetRowQuery = z.infer<typeof datasetRowQuerySchema>;

export function parseDatasetRowQuery(searchParams: SearchParams): DatasetRowQuery {
  const flat = firstValues(searchParams);
  return datasetRowQuerySchema.parse({
    page: flat.page,
    pageSize: flat.pageSize,
    sort: flat.sort,
    dir: flat.dir,
    q: flat.q ?? "",
  });
}

/** The parameters a link from the rows table carries, in the order its links have always had. */
export function datasetRowParams(query: DatasetRowQuery) {
  return { page: query.page, pageSize: query.pageSize, sort: query.sort, dir: query.dir, q: query.q };
}

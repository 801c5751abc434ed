import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/**
 * The newest runs (at most `take`) that have `tag` as one whole element of their JSON array of tags, and are
 * of `datasetId` and in `status` when given. Matched as JSON, not as text: a LIKE pattern would read `_` and
 * `%` in a tag as wildcards and stumble on JSON's escaped quotes.
 */
export async function runIdsWithTag(
  db: Db,
  filter: { tag: string; datasetId?: string; status?: string; take: number },
): Promise<string[]> {
  const sql = sqlOf(db);
  const conditions = [sqlFragments(sql).jsonArrayHas(`"tags"`, "@tag")];
  if (filter.datasetId) conditions.push(`"datasetId" = @datasetId`);
  if (filter.status) conditions.push(`"status" = @status`);
  const rows = await sql.all<{ id: string }>(
    `SELECT "id" FROM "Run" WHERE ${conditions.join(" AND ")} ORDER BY "createdAt" DESC, "id" ASC LIMIT @take`,
    {
      tag: filter.tag,
      take: filter.take,
      ...(filter.datasetId ? { datasetId: filter.datasetId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
    },
  );
  return rows.map((row) => row.id);
}

import type { Db } from "../client";
import { decodeRunTags } from "./storedRun";

export type RunListFilter = {
  datasetId?: string;
  status?: string;
  /** One tag, matched whole (`branch=main` matches that tag, not `branch=main2`). */
  tag?: string;
  limit: number;
};

/**
 * Runs newest first, filtered by dataset, status and one tag: what the API's run list and the CLI's
 * `--baseline latest:branch=main` read. The tag is matched as a whole element of the run's JSON array of tags
 * (its quoted form), so `a=b` never matches `xa=b` or `a=bc`.
 */
export async function listRunSummaries(db: Db, filter: RunListFilter) {
  const runs = await db.run.findMany({
    where: {
      ...(filter.datasetId ? { datasetId: filter.datasetId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.tag ? { tags: { contains: JSON.stringify(filter.tag) } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: filter.limit,
    select: {
      id: true,
      name: true,
      tags: true,
      status: true,
      judgeProvider: true,
      judgeModel: true,
      generationModel: true,
      createdAt: true,
      finishedAt: true,
      dataset: { select: { id: true, name: true } },
    },
  });
  return runs.map((run) => ({ ...run, tags: decodeRunTags(run.tags) }));
}

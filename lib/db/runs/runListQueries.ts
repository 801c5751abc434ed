import type { Db } from "../client";
import { runIdsWithTag } from "./runTagFilter";
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
 * `--baseline latest:branch=main` read. The tag is matched as a whole element of the run's tags
 * (runTagFilter.ts), so `a=b` never matches `xa=b` or `a=bc`.
 */
export async function listRunSummaries(db: Db, filter: RunListFilter) {
  const tagged = filter.tag ? await runIdsWithTag(db, { ...filter, tag: filter.tag, take: filter.limit }) : null;
  const runs = await db.run.findMany({
    where: {
      ...(filter.datasetId ? { datasetId: filter.datasetId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(tagged ? { id: { in: tagged } } : {}),
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

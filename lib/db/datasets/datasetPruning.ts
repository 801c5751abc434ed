import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { runIdsWithTag } from "../runs/runTagFilter";
import { deleteDatasetWithRuns } from "./datasetWrites";

export type PrunedDataset = { id: string; name: string; createdAt: string; runs: number };
export type KeptDataset = PrunedDataset & { reason: string };

const IN_PROGRESS = `('planning', 'pending', 'running')`;

/**
 * CI uploads a dataset every build; this removes the old ones. A dataset is pruned when it was uploaded more
 * than `olderThanDays` days ago (by the store's clock), has runs, and every one of its runs carries `tag`
 * (one whole tag, as the run list matches it: `ci`, `branch=feature-x`), so a dataset someone also ran by hand
 * is never taken. Kept, with why: a dataset with a run in progress, and the one holding the newest completed
 * run with the tag (what `--baseline latest:TAG` compares with). Each delete rechecks its runs in one
 * statement (deleteDatasetWithRuns), so a run started meanwhile keeps its dataset. `dryRun` lists, deletes
 * nothing.
 */
export async function pruneTaggedDatasets(
  db: Db,
  options: { tag: string; olderThanDays: number; dryRun: boolean },
): Promise<{ deleted: PrunedDataset[]; kept: KeptDataset[] }> {
  const sql = sqlOf(db);
  const { jsonArrayHas, ageMs } = sqlFragments(sql);
  const candidates = await sql.all<{
    id: string;
    name: string;
    createdAt: Date | string;
    runs: number | string;
    inProgress: number | string;
  }>(
    `SELECT d."id" AS "id", d."name" AS "name", d."createdAt" AS "createdAt", COUNT(*) AS "runs",
       SUM(CASE WHEN r."status" IN ${IN_PROGRESS} THEN 1 ELSE 0 END) AS "inProgress"
     FROM "Dataset" d JOIN "Run" r ON r."datasetId" = d."id"
     WHERE d."status" = 'ready' AND ${ageMs(`d."createdAt"`)} > @olderMs
     GROUP BY d."id", d."name", d."createdAt"
     HAVING SUM(CASE WHEN ${jsonArrayHas(`r."tags"`, "@tag")} THEN 1 ELSE 0 END) = COUNT(*)
     ORDER BY d."createdAt", d."id"`,
    { tag: options.tag, olderMs: options.olderThanDays * 86_400_000 },
  );
  const [newest] = await runIdsWithTag(db, { tag: options.tag, status: "completed", take: 1 });
  const baselineDataset = newest
    ? (await sql.get<{ datasetId: string }>(`SELECT "datasetId" FROM "Run" WHERE "id" = ?`, [newest]))?.datasetId
    : undefined;
  const deleted: PrunedDataset[] = [];
  const kept: KeptDataset[] = [];
  for (const candidate of candidates) {
    const dataset = {
      id: candidate.id,
      name: candidate.name,
      createdAt: new Date(candidate.createdAt).toISOString(),
      runs: Number(candidate.runs),
    };
    if (Number(candidate.inProgress) > 0) kept.push({ ...dataset, reason: "a run on it is in progress" });
    else if (candidate.id === baselineDataset)
      kept.push({
        ...dataset,
        reason: `it holds the newest completed run tagged ${options.tag} (the latest: baseline)`,
      });
    else if (options.dryRun) deleted.push(dataset);
    else {
      const outcome = await deleteDatasetWithRuns(db, candidate.id, dataset.runs);
      if (outcome.deleted) deleted.push(dataset);
      else kept.push({ ...dataset, reason: "its runs changed while it was being pruned" });
    }
  }
  return { deleted, kept };
}

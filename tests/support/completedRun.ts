// Relative imports: the benchmarks, bundled by esbuild, use this file too.
import { sqlOf, type Db } from "../../lib/db/client";

/** One completed run row, written straight to the table (the benchmarks' and tests' judgments follow it). */
export async function insertCompletedRun(
  db: Db,
  run: { id: string; datasetId: string; name: string; judgeModel: string; config: string; at: Date },
): Promise<void> {
  await sqlOf(db).bulkInsert([
    {
      table: "Run",
      columns: [
        "id",
        "datasetId",
        "name",
        "tags",
        "status",
        "judgeProvider",
        "judgeModel",
        "concurrency",
        "config",
        "createdAt",
        "startedAt",
        "finishedAt",
      ],
      rows: [
        [
          run.id,
          run.datasetId,
          run.name,
          "[]",
          "completed",
          "openai",
          run.judgeModel,
          16,
          run.config,
          run.at,
          run.at,
          run.at,
        ],
      ],
    },
  ]);
}

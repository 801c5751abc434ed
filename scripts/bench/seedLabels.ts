import { closeDb, createDb, refreshPlannerStatistics } from "../../lib/db/client";
import { listDatasetRowNumbers } from "../../lib/db/datasets/datasetQueries";
import { writeLabels, type RowLabels } from "../../lib/db/labels/labelWrites";
import type { LabelEntry } from "../../lib/contract/labelEntry";
import { mulberry32 } from "../../lib/stats";

const WHOLE_ROW_METRICS = [
  "response/llm_judged/correctness",
  "response/llm_judged/groundedness",
  "response/llm_judged/safety",
];
const CHUNK_METRIC = "retrieval/llm_judged/chunk_relevance";

/**
 * Human labels on every row of a seeded bench dataset: three yes/no judges
 * and chunk relevance per chunk, seeded-random at a 75 % yes-rate, written
 * through the same repository function as an import, then analyzed as an import's are.
 */
export async function seedLabels(databaseUrl: string, datasetId: string, chunks: number): Promise<number> {
  const db = createDb(databaseUrl);
  const random = mulberry32(99);
  const rating = (metric: string, chunkPosition: number): LabelEntry => ({
    metric,
    chunkPosition,
    value: { kind: "rating", rating: random() < 0.75 ? "yes" : "no" },
  });
  const rows: RowLabels[] = (await listDatasetRowNumbers(db, datasetId)).map(({ id: rowId }) => ({
    rowId,
    entries: [
      ...WHOLE_ROW_METRICS.map((metric) => rating(metric, -1)),
      ...Array.from({ length: chunks }, (_, position) => rating(CHUNK_METRIC, position)),
    ],
  }));
  const written = await writeLabels(db, datasetId, rows, { labelledBy: null, source: "import" });
  // As a label file's import does once its labels are in (labelImportWrites.ts).
  await refreshPlannerStatistics(db, ["HumanLabel"]);
  await closeDb(db);
  return written;
}

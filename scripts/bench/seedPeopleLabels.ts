import { closeDb, createDb } from "../../lib/db/client";
import { importLabelFile } from "../../lib/labels/labelImport";
import { mulberry32 } from "../../lib/stats";

export const PEOPLE_METRIC = "response/llm_judged/groundedness";
const LABELLERS = ["ann", "bob", "cy"];

/**
 * Three people's labels of groundedness on every row of a seeded bench dataset (rows `row-1` … `row-N`),
 * through the label import a team would use: each person right about a row's seeded truth 85 % of the
 * time, so they agree with each other about three times in four. Returns the labels and the import's time.
 */
export async function seedPeopleLabels(
  databaseUrl: string,
  datasetId: string,
  rows: number,
): Promise<{ labels: number; seconds: number }> {
  const db = createDb(databaseUrl);
  const random = mulberry32(7);
  async function* file(): AsyncGenerator<string> {
    let batch: string[] = [];
    for (let n = 1; n <= rows; n++) {
      const truth = random() < 0.7 ? "yes" : "no";
      for (const labeller of LABELLERS) {
        const label = random() < 0.85 ? truth : truth === "yes" ? "no" : "yes";
        batch.push(JSON.stringify({ request_id: `row-${n}`, metric: "groundedness", label, labelled_by: labeller }));
      }
      if (batch.length >= 3000) {
        yield `${batch.join("\n")}\n`;
        batch = [];
      }
    }
    if (batch.length > 0) yield `${batch.join("\n")}\n`;
  }
  const started = performance.now();
  const result = await importLabelFile(
    db,
    datasetId,
    file(),
    "jsonl",
    { importedBy: null },
    {
      maxRecords: rows * LABELLERS.length,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  await closeDb(db);
  if (!result.ok) throw new Error(`the bench's label import failed: ${JSON.stringify(result).slice(0, 500)}`);
  return { labels: result.changed, seconds };
}

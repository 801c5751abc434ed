import { closeDb, createDb, sqlOf } from "../../lib/db/client";
import { createPairwiseComparison, finishPairwisePlan } from "../../lib/db/pairwise/pairwiseComparisons";
import { NO_BUDGET } from "../../lib/db/runs/runBudget";
import type { SqlValue } from "../../lib/db/store/sqlRunner";
import { mulberry32 } from "../../lib/stats";

const BATCH = 5000;
const WINNERS = ["a", "b", "tie"] as const;

/**
 * Seeds a completed pairwise comparison of two runs on one dataset for the UI benchmark: both orders of every
 * row judged, winners seeded-random with B ahead (so the verdict, the decided-pairs list and the diagnostics all
 * have something to show), written straight to the table through the store's bulk insert.
 */
export async function seedPairwise(
  databaseUrl: string,
  baselineRunId: string,
  candidateRunId: string,
): Promise<string> {
  const db = createDb(databaseUrl);
  const sql = sqlOf(db);
  const id = await createPairwiseComparison(db, {
    baselineRunId,
    candidateRunId,
    criteria: [{ name: "overall" }],
    orders: "both",
    seed: "bench",
    judgeProvider: "openai",
    judgeModel: "bench-judge",
    concurrency: 16,
    budget: NO_BUDGET,
    createdById: null,
  });
  const datasetId = (
    await sql.get<{ datasetId: string }>(`SELECT "datasetId" FROM "Run" WHERE "id" = ?`, [baselineRunId])
  )?.datasetId;
  const random = mulberry32(7);
  const draw = () => {
    const x = random();
    return x < 0.45 ? WINNERS[1] : x < 0.75 ? WINNERS[2] : WINNERS[0];
  };
  let after = -1;
  let total = 0;
  for (;;) {
    const rows = await sql.all<{ id: string; rowNumber: number }>(
      `SELECT "id", "rowNumber" FROM "DatasetRow" WHERE "datasetId" = ? AND "rowNumber" > ? ORDER BY "rowNumber" LIMIT ?`,
      [datasetId ?? "", after, BATCH],
    );
    if (rows.length === 0) break;
    const values: SqlValue[][] = [];
    for (const row of rows) {
      const first = draw();
      // Mostly position-consistent, as a decent judge is: the second order repeats the first 80% of the time.
      const second = random() < 0.8 ? first : draw();
      for (const [shownOrder, winner] of [
        ["ab", first],
        ["ba", second],
      ] as const)
        values.push([
          id,
          "overall",
          row.id,
          row.id,
          Number(row.rowNumber),
          shownOrder,
          "done",
          winner,
          `seeded ${winner}`,
          400,
          450,
          "pairwise/v1",
        ]);
    }
    await sql.bulkInsert([
      {
        table: "PairwiseVerdict",
        columns: [
          "comparisonId",
          "criterion",
          "baselineRowId",
          "candidateRowId",
          "rowNumber",
          "shownOrder",
          "status",
          "winner",
          "rationale",
          "baselineLength",
          "candidateLength",
          "promptVersion",
        ],
        rows: values,
      },
    ]);
    total += values.length;
    after = Number(rows[rows.length - 1].rowNumber);
  }
  await finishPairwisePlan(db, id, total);
  await sql.run(
    `UPDATE "PairwiseComparison" SET "status" = 'completed', "progressDone" = ?, "llmCalls" = ? WHERE "id" = ?`,
    [total, total, id],
  );
  await closeDb(db);
  return id;
}

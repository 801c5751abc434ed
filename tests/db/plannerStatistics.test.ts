import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { importRows, runToCompletion } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";

const TABLES = ["DatasetRow", "ContextChunk", "JudgmentItem", "ChunkJudgment", "RunRowVerdict"];
const ROWS = 30;

/**
 * PostgreSQL plans from statistics that ANALYZE gathers; a table never
 * analyzed says so with reltuples = -1. With autovacuum off on these tables,
 * only the app's own refresh (refreshPlannerStatistics) can gather them.
 */
describe.skipIf(testStore() !== "postgresql")("planner statistics after a bulk write (PostgreSQL)", () => {
  let temp: TempDb;
  let db: Db;
  const counted = async (table: string) => {
    const stats = await sqlOf(db).get<{ estimate: number }>(
      `SELECT reltuples::float8 AS "estimate" FROM pg_class WHERE relname = ?`,
      [table],
    );
    const rows = await sqlOf(db).get<{ rows: number }>(`SELECT COUNT(*)::int AS "rows" FROM "${table}"`);
    return { estimate: stats?.estimate, rows: rows?.rows };
  };

  beforeAll(async () => {
    temp = await createTempDb();
    db = temp.db;
    for (const table of TABLES) await sqlOf(db).run(`ALTER TABLE "${table}" SET (autovacuum_enabled = false)`);
  });
  afterAll(async () => temp?.cleanup());

  it("gathers an upload's tables as it commits, and a finished run's as it completes", async () => {
    expect(await counted("DatasetRow")).toEqual({ estimate: -1, rows: 0 });
    const datasetId = await importRows(db, syntheticRows(ROWS, 2));
    expect(await counted("DatasetRow")).toEqual({ estimate: ROWS, rows: ROWS });
    const chunks = await counted("ContextChunk");
    expect(chunks.rows).toBeGreaterThan(ROWS);
    expect(chunks.estimate).toBe(chunks.rows);
    expect((await counted("JudgmentItem")).estimate).toBe(-1);

    const { outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["response/llm_judged/correctness", "retrieval/llm_judged/chunk_relevance"],
        judge: { provider: "heuristic", model: "heuristic" },
      },
      null,
    );
    expect(outcome.status).toBe("completed");
    for (const table of ["JudgmentItem", "ChunkJudgment", "RunRowVerdict"]) {
      const { estimate, rows } = await counted(table);
      expect(rows, table).toBeGreaterThanOrEqual(ROWS);
      expect(estimate, table).toBe(rows);
    }
  });
});

// What every worker and web server runs every few seconds while idle (its presence beat, the reclaim from gone
// workers, the sweep for runs to resume or help) reads no table that grows with runs or datasets from end to
// end. SQLite keeps no statistics here, so its plan is decided by the statement's shape: a reclaim written with
// `"claimedBy" IS NOT NULL` scanned every judgment, 4.9 s on a store of two 100,000-row runs, every 5 s.
// The statements the direct connection prepares during a sweep are captured and their plans read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionFor } from "@/lib/db/store/directSqlite";
import { startWorkerLoop } from "@/lib/engine/worker/workerLoop";
import { createTempSqlite, type TempDb } from "../support/tempDb";

// Tables whose rows grow with datasets, runs, labels and judgments: a scan of one costs in proportion to the store.
const GROWING_TABLES = [
  "DatasetRow",
  "ContextChunk",
  "ToolCall",
  "RunEvent",
  "Generation",
  "JudgmentItem",
  "RunMetricTally",
  "RunRowVerdict",
  "RunRowTally",
  "ChunkJudgment",
  "JudgeCache",
  "HumanLabel",
  "PersonLabel",
  "HumanLabelRevision",
  "PairwiseVerdict",
];

let store: TempDb;
let connection: ReturnType<typeof connectionFor>;
const prepared: string[] = [];

beforeAll(async () => {
  store = await createTempSqlite();
  connection = connectionFor(store.url);
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof connection.prepare;
});
afterAll(async () => store.cleanup());

describe("an idle worker's periodic statements", () => {
  it("read the tables that grow through an index, never by a scan", async () => {
    const loop = startWorkerLoop({ db: store.db, kind: "worker", pollMs: 100 });
    // The first presence beat (with its reclaim) and a sweep, however long a busy machine takes; then a few more.
    const seen = (text: string) => prepared.some((sql) => sql.includes(text));
    for (let waited = 0; waited < 600 && !(seen('"claimedBy" NOT IN') && seen('UPDATE "JudgmentItem"')); waited++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await loop.stop();

    const statements = [...new Set(prepared)].filter((sql) => !/^\s*(BEGIN|COMMIT|ROLLBACK|PRAGMA)/i.test(sql));
    expect(statements.some((sql) => sql.includes('UPDATE "JudgmentItem"'))).toBe(true);
    const scans = statements.flatMap((sql) =>
      connection
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...Array.from({ length: countPlaceholders(sql) }, () => null))
        .map((step) => (step as { detail: string }).detail)
        .filter((detail) => GROWING_TABLES.some((table) => new RegExp(`^SCAN ${table}\\b`).test(detail)))
        .map((detail) => `${detail} in: ${sql.replace(/\s+/g, " ").slice(0, 160)}`),
    );
    expect(scans).toEqual([]);
  });
});

function countPlaceholders(sql: string): number {
  return (sql.replace(/'[^']*'/g, "").match(/\?/g) ?? []).length;
}

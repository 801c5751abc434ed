// npm run bench:compare — the compare page's worst case: one dataset of
// BENCH_ROWS rows (default 20,000) and BENCH_RUNS finished runs over it
// (default 8) with a score for every row and every metric the comparison
// bootstraps (every score, precision and value metric of the catalogue),
// written straight to the tables (the store's bulk insert, so either store).
// Then, in this process, compareRuns as the
// page calls it: the time until it answers, the longest the event loop stood
// still meanwhile (what every other request on the server waits), how many
// deltas it left for later, the time until every delta is known, and a
// second, warm comparison. BENCH_DB=path keeps the seeded SQLite store there and
// reuses it on the next run (seeding 3.2 million judgments takes minutes);
// BENCH_DATABASE_URL=postgresql://… seeds (or reuses) a PostgreSQL database instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { compareRuns, type Comparison } from "../../lib/compare/compareRuns";
import { getRunAggregates } from "../../lib/db/judgments/aggregateQueries";
import { closeDb, createDb, gatherPlannerStatistics, sqlOf, type Db } from "../../lib/db/client";
import { countStoredRuns } from "../../lib/db/runs/runQueries";
import { getPairedCounts } from "../../lib/db/judgments/compareQueries";
import { listDatasetRowNumbers } from "../../lib/db/datasets/datasetQueries";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import { metricShape } from "../../lib/contract/aggregates";
import { METRICS } from "../../lib/contract/metricCatalog";
import type { SqlValue } from "../../lib/db/store/sqlRunner";
import { mulberry32 } from "../../lib/stats";
import { byteChunks, toJsonl } from "../../tests/support/evalFiles";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { insertCompletedRun } from "../../tests/support/completedRun";

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const BOOTSTRAPPED = METRICS.map((m) => m.name).filter((name) => metricShape(name) !== "rating");
const RUN_NAME = "Compare bench";
/** Fixed run ids, so a kept store is found again without a query. */
const benchRunIds = () => Array.from({ length: RUNS }, (_, run) => `compare-bench-run-${run + 1}`);

async function main(): Promise<void> {
  const postgres = process.env.BENCH_DATABASE_URL ?? null;
  const kept = process.env.BENCH_DB ? path.resolve(process.env.BENCH_DB) : null;
  const dir = postgres || kept ? null : fs.mkdtempSync(path.join(os.tmpdir(), "assay-compare-bench-"));
  const databaseUrl = postgres ?? `file:${kept ?? path.join(dir ?? "", "bench.db")}`;
  let db: Db | null = null;
  try {
    await applyPendingMigrations(databaseUrl);
    const store = createDb(databaseUrl);
    db = store;
    // A kept store already holds the bench's runs (fixed ids): found, it is reused.
    const reuse = (await countStoredRuns(store, benchRunIds())) === RUNS;
    const seedStarted = performance.now();
    const runIds = reuse ? benchRunIds() : await seed(store);
    await gatherPlannerStatistics(store);
    console.log(
      `${reuse ? "reused" : "seeded"} ${runIds.length} runs × ${ROWS.toLocaleString("en-US")} rows × ${BOOTSTRAPPED.length} bootstrapped metrics${reuse ? "" : ` in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`}`,
    );
    const [baseline] = runIds;

    // What every comparison reads besides the bootstrap: each run's aggregates, each candidate's paired counts.
    const sqlStarted = performance.now();
    for (const id of runIds) await getRunAggregates(store, id, BOOTSTRAPPED);
    const aggregatesMs = performance.now() - sqlStarted;
    for (const id of runIds.slice(1)) await getPairedCounts(store, baseline, id);
    console.log(
      `  its SQL alone: aggregates ${aggregatesMs.toFixed(0)} ms, paired counts ${(performance.now() - sqlStarted - aggregatesMs).toFixed(0)} ms`,
    );

    const cold = await timed(() => compareRuns(store, runIds, baseline));
    report("first request (cold)", cold);
    const complete = await timed(() => compareRuns(store, runIds, baseline, { waitMs: Infinity }));
    report("the same, waiting for all", complete);
    console.log(`  every delta known ${(cold.ms + complete.ms).toFixed(0)} ms after the first request began`);
    report("second request (warm)", await timed(() => compareRuns(store, runIds, baseline)));
  } finally {
    if (db) await closeDb(db);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Timed = { ms: number; maxBlockMs: number; comparison: Comparison };

/** Wall time of one comparison and the longest event-loop stall during it (the widest gap between 5 ms ticks). */
async function timed(compare: () => Promise<Comparison | null>): Promise<Timed> {
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const comparison = await compare();
  const ms = performance.now() - started;
  // One more tick, so a stall that lasted to the end of the comparison is counted.
  await new Promise((resolve) => setTimeout(resolve, 15));
  clearInterval(ticker);
  if (!comparison) throw new Error("the seeded runs were not found");
  return { ms, maxBlockMs: maxGap, comparison };
}

function pendingDeltas(comparison: Comparison): number {
  // Compared as a string so this script also measures code that has no "pending" verdict.
  return comparison.metrics.reduce(
    (sum, m) => sum + Object.values(m.deltas).filter((d) => d.verdict === "pending").length,
    0,
  );
}

function report(label: string, { ms, maxBlockMs, comparison }: Timed): void {
  const deltas = comparison.metrics.reduce((sum, m) => sum + Object.keys(m.deltas).length, 0);
  console.log(
    `  ${label.padEnd(24)} answered in ${ms.toFixed(0).padStart(6)} ms, event loop blocked at most ${maxBlockMs.toFixed(0).padStart(6)} ms, ${pendingDeltas(comparison)} of ${deltas} deltas left pending`,
  );
}

async function seed(db: Db): Promise<string[]> {
  const imported = await ingestUpload({
    chunks: byteChunks(toJsonl(syntheticRows(ROWS, 1)), 1 << 20),
    filename: "compare-bench.jsonl",
    mode: "strict",
    sink: createDatasetSink(db),
    limits: {
      maxFileBytes: 1 << 30,
      maxRowBytes: 1 << 23,
      maxCellBytes: 1 << 21,
      maxReportedErrors: 100,
      batchSize: 1000,
    },
  });
  if (!imported.ok) throw new Error("seed dataset did not import");
  const rowIds = await listDatasetRowNumbers(db, imported.datasetId);
  const runIds = benchRunIds();
  const now = new Date();
  const config = JSON.stringify({ metrics: BOOTSTRAPPED, chunkMode: "batched", thresholds: {} });
  for (let run = 0; run < RUNS; run++) {
    const runId = runIds[run];
    const random = mulberry32(run + 1);
    // Each run a little better than the last, so some deltas are real and some are noise.
    const shift = run * 0.01;
    await insertCompletedRun(db, {
      id: runId,
      datasetId: imported.datasetId,
      name: `${RUN_NAME} ${run + 1}`,
      judgeModel: "bench",
      config,
      at: now,
    });
    for (let start = 0; start < rowIds.length; start += 1000) {
      const items: SqlValue[][] = [];
      for (const { id: rowId, rowNumber } of rowIds.slice(start, start + 1000))
        for (const metric of BOOTSTRAPPED) {
          const score = metric.startsWith("agent/")
            ? Math.round(200 + random() * 800)
            : Math.min(1, Math.max(0, random() * 0.8 + 0.1 + shift));
          const passed = metric.startsWith("agent/") ? null : score >= 0.5;
          items.push([randomUUID(), runId, rowId, rowNumber, metric, "done", score, 0.5, passed, now, now]);
        }
      await sqlOf(db).bulkInsert([
        {
          table: "JudgmentItem",
          columns: [
            "id",
            "runId",
            "rowId",
            "rowNumber",
            "metric",
            "status",
            "score",
            "threshold",
            "passed",
            "createdAt",
            "finishedAt",
          ],
          rows: items,
        },
      ]);
    }
  }
  return runIds;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

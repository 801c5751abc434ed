// npm run bench:plan — plans a run of every built-in judge over a 20,000-row
// dataset (5 chunks a row) and prints the planning time, the process's peak
// RSS and the longest event-loop stall while planning, against a target. The dataset is imported
// by a separate process first, so the figures are the planning's alone.
// Asserts nothing. ROWS=… overrides the row count.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDirectConnection } from "../../lib/db/store/directSqlite";
import { closeDb, createDb } from "../../lib/db/client";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { countRunJudgments } from "../../lib/db/runs/runQueries";
import { createRun } from "../../lib/engine/createRun";
import { BUILT_IN_METRICS } from "../../lib/engine/runConfig";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import { byteChunks, toJsonl } from "../../tests/support/evalFiles";
import { syntheticRows } from "../../tests/support/syntheticRows";

/** The longest the planner may hold the event loop, in milliseconds. */
const STALL_TARGET_MS = 100;

const ROWS = Number(process.env.ROWS ?? 20_000);

/** Imports the bench's dataset and a 10-row one to warm up on; prints both ids, the large one last. */
async function seed(dbUrl: string): Promise<void> {
  await applyPendingMigrations(dbUrl);
  const db = createDb(dbUrl);
  for (const rows of [10, ROWS]) {
    const imported = await ingestUpload({
      chunks: byteChunks(toJsonl(syntheticRows(rows, 5)), 65536),
      filename: `plan-bench-${rows}.jsonl`,
      mode: "strict",
      sink: createDatasetSink(db),
    });
    if (!imported.ok) throw new Error("bench dataset did not import");
    console.log(imported.datasetId);
  }
  await closeDb(db);
}

async function plan(dbUrl: string, warmUpDatasetId: string, datasetId: string): Promise<void> {
  const db = createDb(dbUrl);
  // A process's first plan compiles each of planning's queries once (Prisma's query compiler, prepared
  // statements): about 0.3 s held in one go, once per process. Paid on the 10-row dataset, before the clock.
  const warmUpStarted = performance.now();
  await createRun(db, {
    datasetId: warmUpDatasetId,
    metrics: BUILT_IN_METRICS,
    judge: { provider: "openai", model: "bench-judge" },
    concurrency: 8,
  });
  const warmUpMs = performance.now() - warmUpStarted;
  let longestStall = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last - 10);
    last = now;
  }, 10);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const runId = await createRun(db, {
    datasetId,
    metrics: BUILT_IN_METRICS,
    judge: { provider: "openai", model: "bench-judge" },
    concurrency: 8,
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(ticker);
  // The gap since the last tick counts too: a planner that never yields would otherwise show no stall at all.
  longestStall = Math.max(longestStall, performance.now() - last - 10);
  const items = await countRunJudgments(db, runId);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `planned ${items} items (${ROWS} rows × ${BUILT_IN_METRICS.length} judges) in ${seconds.toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s); ` +
      `RSS before ${(rssBefore / 2 ** 20).toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB; longest event-loop stall ${longestStall.toFixed(0)} ms`,
  );
  console.log(`the process's first plan (10 rows, its queries compiled): ${warmUpMs.toFixed(0)} ms`);
  // A plan page is written in transactions of about 300 items (lib/engine/createRun.ts) so that timers and requests
  // get their turn: the longest hold of the event loop stays under a tenth of a second.
  console.log(
    `longest event-loop stall while planning: ${longestStall.toFixed(0)} ms (target ≤ ${STALL_TARGET_MS} ms) ${longestStall <= STALL_TARGET_MS ? "ok" : "MISSED"}`,
  );
  await closeDb(db);
  closeDirectConnection(dbUrl);
}

async function main(): Promise<void> {
  const [phase, dbUrl, warmUpDatasetId, datasetId] = process.argv.slice(2);
  if (phase === "seed" && dbUrl) return seed(dbUrl);
  if (phase === "plan" && dbUrl && warmUpDatasetId && datasetId) return plan(dbUrl, warmUpDatasetId, datasetId);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-plan-"));
  const url = `file:${path.join(dir, "plan.db")}`;
  const self = process.argv[1];
  // BENCH_NODE_ARGS: Node flags for the planning process (e.g. --trace-gc, or a heap setting to compare).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const run = (args: string[], flags: string[] = []) => {
    const result = spawnSync(process.execPath, [...flags, self, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (result.status !== 0) throw new Error(`${args[0]} failed`);
    return result.stdout.trim();
  };
  try {
    const [warmUpId = "", id = ""] = run(["seed", url]).split("\n").slice(-2);
    console.log(run(["plan", url, warmUpId, id], nodeArgs));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

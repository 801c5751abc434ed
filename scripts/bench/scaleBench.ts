// npm run bench:scale: one large run on PostgreSQL (a throwaway server from
// npm) judged by 1, 2 and 4 `npm run worker` processes against the fake
// OpenAI server with a fixed latency: first at one in-flight limit shared by
// every worker, then at a limit that grows with the workers. For each it
// prints throughput, efficiency against the ideal (limit ÷ latency calls per
// second), the most calls the server saw in flight, the database's own time
// per judgment (pg_stat_statements: every statement every process sent,
// heartbeats and claims included) and each worker's peak memory. The last
// line is the summary. Knobs: BENCH_ITEMS (20000), BENCH_LATENCY_MS (250),
// BENCH_LIMIT (16: the limit per worker when it grows, and ×4 shared),
// BENCH_WORKERS (1,2,4: the worker counts measured).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { closeDb, createDb, sqlOf, type Db } from "../../lib/db/client";
import { countRunJudgments, getRun } from "../../lib/db/runs/runQueries";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { startLocalPostgres } from "../../lib/db/store/embeddedPostgres";
import { createRun } from "../../lib/engine/createRun";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import { byteChunks, toJsonl } from "../../tests/support/evalFiles";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { bundleEntry } from "../bundleEntry.mjs";
import { startFakeServerProcess, type FakeServerProcess } from "./startFakeServerProcess";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 250);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 16);
/** The worker counts measured (BENCH_WORKERS, e.g. "1" or "1,4"); 1, 2 and 4 by default. */
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const METRICS = ["response/llm_judged/relevance_to_query", "response/llm_judged/safety"];
const statsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });

type Result = {
  label: string;
  workers: number;
  limit: number;
  items: number;
  seconds: number;
  perSecond: number;
  efficiency: number;
  maxInFlight: number;
  dbMsPerJudgment: number;
  /** The shared in-flight limit's own statements (taking and giving back slots), per LLM call. */
  slotStatementsPerCall: number;
  slotMsPerCall: number;
  peakRssMb: number[];
};

async function main(): Promise<void> {
  const root = process.cwd();
  const workerBundle = compileWorker(root);
  const dir = path.join(os.tmpdir(), `assay-bench-scale-${process.pid}`);
  const server = await startLocalPostgres({
    dir,
    persistent: false,
    settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" },
  });
  const fake = await startFakeServerProcess(root, LATENCY_MS);
  try {
    await server.query(`CREATE DATABASE "bench"`);
    const url = server.url("bench");
    await applyPendingMigrations(url);
    const db = createDb(url);
    await sqlOf(db).run(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    const rows = Math.ceil(ITEMS / METRICS.length);
    const seeded = Date.now();
    const imported = await ingestUpload({
      chunks: byteChunks(toJsonl(syntheticRows(rows, 2)), 65536),
      filename: "scale.jsonl",
      mode: "strict",
      sink: createDatasetSink(db),
    });
    if (!imported.ok) throw new Error("the benchmark's rows did not import");
    console.log(`PostgreSQL 18 from npm; ${rows} rows uploaded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    console.log(`fake OpenAI server: ${LATENCY_MS} ms per call; ${METRICS.length} single-call judges per row\n`);

    const results: Result[] = [];
    const configs = [
      ...WORKER_COUNTS.map((workers) => ({ label: "shared limit", workers, limit: LIMIT * 4 })),
      ...WORKER_COUNTS.map((workers) => ({ label: "limit × workers", workers, limit: LIMIT * workers })),
    ];
    for (const config of configs) {
      const result = await measure(db, url, workerBundle, fake, imported.datasetId, config);
      results.push(result);
      console.log(formatResult(result));
    }
    const sizes = await sqlOf(db).get<{ items: number; table: number; indexes: number }>(
      `SELECT (SELECT COUNT(*) FROM "JudgmentItem") AS "items", pg_table_size('"JudgmentItem"') AS "table", pg_indexes_size('"JudgmentItem"') AS "indexes"`,
    );
    const perItem = (bytes: number) => bytes / Math.max(1, Number(sizes?.items ?? 1));
    console.log(
      `\nstorage: ${sizes?.items} judgments in JudgmentItem: ${perItem(Number(sizes?.table)).toFixed(0)} bytes each in the table, ${perItem(Number(sizes?.indexes)).toFixed(0)} in its indexes`,
    );
    await closeDb(db);

    const growing = results.filter((r) => r.label === "limit × workers");
    const [one, four] = [1, 4].map((workers) => growing.find((r) => r.workers === workers));
    const worstEfficiency = Math.min(...results.map((r) => r.efficiency));
    const worstDb = Math.max(...results.map((r) => r.dbMsPerJudgment));
    const worstRss = Math.max(...results.flatMap((r) => r.peakRssMb));
    console.log(
      `\nsummary: ${ITEMS} judgments per run; efficiency ≥ ${worstEfficiency.toFixed(2)} in every configuration (target 0.9); ` +
        (one && four
          ? `1 → 4 workers with the limit growing: ${one.perSecond.toFixed(0)} → ${four.perSecond.toFixed(0)} judgments/s, ` +
            `${((four.perSecond / (4 * one.perSecond)) * 100).toFixed(0)} % of linear (target ≥ 90 %); `
          : "1 → 4 workers not both measured (BENCH_WORKERS); ") +
        `database time ≤ ${worstDb.toFixed(2)} ms per judgment (target ≤ 2); ` +
        `in flight never above the limit: ${results.every((r) => r.maxInFlight <= r.limit) ? "yes" : "NO"}; worker peak RSS ≤ ${worstRss.toFixed(0)} MB`,
    );
  } finally {
    fake.stop();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(
  db: Db,
  url: string,
  workerBundle: string,
  fake: FakeServerProcess,
  datasetId: string,
  config: { label: string; workers: number; limit: number },
): Promise<Result> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    DATABASE_URL: url,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "sk-bench-scale-0000",
    ASSAY_LLM_MAX_IN_FLIGHT: String(config.limit),
    ASSAY_WORKER_POLL_MS: "200",
  };
  const workers = Array.from({ length: config.workers }, () => startWorker(workerBundle, env));
  const sql = sqlOf(db);
  await waitUntil(async () => {
    const live = await sql.get<{ n: number }>(
      `SELECT COUNT(*) AS "n" FROM "Worker" WHERE "kind" = 'worker' AND "stoppedAt" IS NULL AND "heartbeatAt" > (now() AT TIME ZONE 'UTC') - interval '3 seconds'`,
    );
    return (live?.n ?? 0) >= config.workers;
  }, 30_000);
  await getJson(`${fake.control}/reset`);
  const before = statsSchema.parse(await getJson(`${fake.control}/stats`));
  await sql.run(`SELECT pg_stat_statements_reset()`);
  // A model name per configuration, so no run finds another's answers in the judge cache.
  const runId = await createRun(db, {
    datasetId,
    metrics: METRICS,
    judge: { provider: "openai", model: `scale-${config.label.replace(/\W+/g, "-")}-${config.workers}` },
    concurrency: config.limit,
  });
  const items = await countRunJudgments(db, runId);
  await waitUntil(async () => (await getRun(db, runId))?.status === "completed", 3_600_000);
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} is gone`);
  const dbMs = await sql.get<{ ms: number }>(
    // Top-level statements only: a statement's time includes what its triggers ran, which pg_stat_statements
    // (tracking every level, for the list below) also lists on its own.
    `SELECT COALESCE(SUM(total_exec_time), 0) AS "ms" FROM pg_stat_statements WHERE toplevel AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  const slots = await sql.get<{ calls: number; ms: number }>(
    `SELECT COALESCE(SUM(calls), 0) AS "calls", COALESCE(SUM(total_exec_time), 0) AS "ms" FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE '%InFlightSlot%'`,
  );
  const after = statsSchema.parse(await getJson(`${fake.control}/stats`));
  if (process.env.BENCH_TOP_STATEMENTS) {
    const top = await sql.all<{ query: string; calls: number; ms: number }>(
      `SELECT LEFT(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS "query", calls AS "calls", total_exec_time AS "ms" FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 8`,
    );
    for (const row of top)
      console.log(`  ${Number(row.ms).toFixed(0).padStart(7)} ms ${String(row.calls).padStart(6)}× ${row.query}`);
  }
  const peakRssMb = workers.map((worker) => peakRss(worker.child.pid));
  await Promise.all(workers.map(stopWorker));
  const seconds = ((run.finishedAt?.getTime() ?? Date.now()) - (run.startedAt?.getTime() ?? 0)) / 1000;
  const ideal = config.limit / (LATENCY_MS / 1000);
  return {
    ...config,
    items,
    seconds,
    perSecond: items / seconds,
    efficiency: items / seconds / ideal,
    maxInFlight: after.maxInFlight,
    dbMsPerJudgment: Number(dbMs?.ms ?? 0) / Math.max(1, after.totalRequests - before.totalRequests),
    slotStatementsPerCall: Number(slots?.calls ?? 0) / Math.max(1, after.totalRequests - before.totalRequests),
    slotMsPerCall: Number(slots?.ms ?? 0) / Math.max(1, after.totalRequests - before.totalRequests),
    peakRssMb,
  };
}

function formatResult(r: Result): string {
  return [
    `${r.label.padEnd(15)} workers ${r.workers}  limit ${String(r.limit).padStart(3)}`,
    `${r.items} judgments in ${r.seconds.toFixed(1)} s = ${r.perSecond.toFixed(0)}/s`,
    `efficiency ${r.efficiency.toFixed(2)}`,
    `max in flight ${r.maxInFlight}`,
    `db ${r.dbMsPerJudgment.toFixed(2)} ms/judgment`,
    `shared limit ${r.slotStatementsPerCall.toFixed(2)} statements, ${(r.slotMsPerCall * 1000).toFixed(0)} µs per call`,
    `peak RSS ${r.peakRssMb.map((mb) => mb.toFixed(0)).join(", ")} MB`,
  ].join(" · ");
}

/** The worker as one bundle on plain Node (scripts/run-compiled.mjs's way), built once for every process. */
function compileWorker(root: string): string {
  const outfile = path.resolve(root, "node_modules", ".cache", "assay-compiled", "worker-bench.mjs");
  if (bundleEntry("scripts/worker.ts", outfile, { root }) !== 0) throw new Error("the worker did not compile");
  return outfile;
}

type WorkerProcess = { child: ChildProcess; exited: Promise<void> };

/** Every worker started and not yet exited: stopped with the benchmark, or they would outlive it, polling. */
const liveWorkers = new Set<ChildProcess>();
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    for (const child of liveWorkers) child.kill("SIGKILL");
    process.exit(130);
  });

function startWorker(bundle: string, env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [bundle], {
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  liveWorkers.add(child);
  child.on("exit", () => liveWorkers.delete(child));
  return { child, exited: new Promise((resolve) => child.on("exit", () => resolve())) };
}

async function stopWorker(worker: WorkerProcess): Promise<void> {
  worker.child.kill("SIGTERM");
  await worker.exited;
}

/** A process's peak resident memory (VmHWM), in MB. */
function peakRss(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  for (const child of liveWorkers) child.kill("SIGKILL");
  process.exit(1);
});

// npm run bench:memory — peak resident memory of the CLI and of an upload, each in a process of its own,
// against the 200 MB target, on a fresh SQLite store and a throwaway PostgreSQL (BENCH_STORES=sqlite,postgres;
// both by default):
//   1. a BENCH_ROWS-row dataset (default 100,000; 5 chunks a row) imported the browser's way, then
//      `npm run eval` planning and judging it on the offline heuristic judge (every judge, or BENCH_JUDGES) and
//      exporting it as CSV, then
//      `npm run eval -- --resume RUN --out results.json` exporting it as JSON;
//      With BENCH_JUDGE=llm the CLI judges through the openai SDK against a fake OpenAI server in a process of
//      its own (BENCH_LATENCY_MS a call, default 50; BENCH_CONCURRENCY calls in flight, default 8), as a
//      user with a model endpoint runs it;
//   2. a BENCH_UPLOAD_ROWS-row JSONL upload (default 1,000,000; 0 skips it) through ingestUpload and the
//      dataset sink, with its time.
// Peak RSS is read from /proc/<pid>/status (VmHWM, the kernel's own high-water mark) of every process in the
// measured tree, every 100 ms; the CLI's peak is also split by phase (planning, judging, export) from its
// output. MB here is 2^20 bytes. Asserts nothing; exits 1 when a figure is over the target.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { useLowMemoryRuntime } from "../../lib/runtime/lowMemoryRuntime";
import { closeDb, createDb } from "../../lib/db/client";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { startLocalPostgres, type LocalPostgres } from "../../lib/db/store/embeddedPostgres";
import { closeDirectConnection } from "../../lib/db/store/directSqlite";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import { DEFAULT_LIMITS } from "../../lib/ingest/limits";
import { syntheticJsonl } from "../../tests/support/syntheticRows";
import { startFakeServerProcess } from "./startFakeServerProcess";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const UPLOAD_ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 1_000_000);
/** The CLI's --judges: every Databricks judge and metric unless named (100,000 rows every judge took over an hour on this machine). */
const JUDGES = process.env.BENCH_JUDGES ?? "all";
/**
 * Also measure planning alone with these judges (the CLI is stopped once it prints its estimate, which
 * follows the plan): planning every judge over many rows takes seconds, judging them on this machine hours.
 */
const PLAN_JUDGES = process.env.BENCH_PLAN_JUDGES;
const CHUNKS = 5;
const LLM = process.env.BENCH_JUDGE === "llm";
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? "8";
const TARGET_MB = 200;
const MB = 1024 * 1024;
type Store = "sqlite" | "postgres";
const STORES = (process.env.BENCH_STORES ?? "sqlite,postgres").split(",").map((s) => s.trim()) as Store[];

/** A process tree's peak: the largest high-water mark of any one process in it, sampled until it exits. */
type Measured = { stdout: string; seconds: number; peakMb: number; phases: Map<string, number>; code: number | null };

function highWaterMarks(pid: number): number {
  let peak = 0;
  for (const id of [pid, ...descendants(pid)]) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // ended between the listing and the read
    }
  }
  return peak;
}

function descendants(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .flatMap((child) => [child, ...descendants(child)]);
  } catch {
    return [];
  }
}

/**
 * Runs a command and samples its tree. `phaseOf` names the phase a line of its stdout starts (or null): the
 * peak reached while a phase lasts is kept under its name.
 */
function measure(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  phaseOf: (line: string) => string | null = () => null,
  stopAt?: string,
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    let phase = "start";
    const phases = new Map<string, number>();
    let peak = 0;
    const sample = () => {
      if (child.pid === undefined) return;
      const now = highWaterMarks(child.pid);
      if (now > peak) {
        peak = now;
        // VmHWM only rises: a rise belongs to the phase under way.
        phases.set(phase, peak / MB);
      }
    };
    const sampler = setInterval(sample, 100);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      sample();
      stdout += text;
      for (const line of text.split("\n")) phase = phaseOf(line) ?? phase;
      // Stopped once this phase is reached: what came before it is what is measured.
      if (stopAt !== undefined && phase === stopAt) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(sampler);
      resolve({ stdout, seconds: (performance.now() - started) / 1000, peakMb: peak / MB, phases, code });
    });
  });
}

function report(label: string, peakMb: number, extra = ""): boolean {
  const ok = peakMb < TARGET_MB;
  console.log(
    `  ${label.padEnd(44)} peak ${peakMb.toFixed(1).padStart(6)} MB (target < ${TARGET_MB} MB) ${ok ? "ok" : "OVER"}${extra}`,
  );
  return ok;
}

/** Child: imports `rows` synthetic rows through the browser's ingest and dataset sink, prints the dataset id. */
async function uploadChild(url: string, rows: number): Promise<void> {
  // As the CLI runs (lib/runtime/lowMemoryRuntime.ts says why); BENCH_DEFAULT_RUNTIME=1 measures V8's defaults.
  if (process.env.BENCH_DEFAULT_RUNTIME !== "1") useLowMemoryRuntime();
  const db = createDb(url);
  const result = await ingestUpload({
    chunks: syntheticJsonl(rows, CHUNKS),
    filename: "memory-bench.jsonl",
    mode: "strict",
    sink: createDatasetSink(db),
    // The file is about 600 bytes a row: the server's own limit (ASSAY_MAX_UPLOAD_MB) is raised the same way.
    limits: { ...DEFAULT_LIMITS, maxFileBytes: 4096 * MB, maxRows: Math.max(rows, DEFAULT_LIMITS.maxRows) },
  });
  if (!result.ok) throw new Error(`the bench dataset did not import: ${JSON.stringify(result).slice(0, 400)}`);
  console.log(`dataset ${result.datasetId}`);
  await closeDb(db);
  if (url.startsWith("file:")) closeDirectConnection(url);
}

async function benchStore(store: Store, self: string, dir: string): Promise<boolean> {
  let postgres: LocalPostgres | null = null;
  let url = `file:${path.join(dir, `${store}.db`)}`;
  if (store === "postgres") {
    // Not under `dir`: that folder is root's alone, and the server may run as another user (embeddedPostgres.ts).
    postgres = await startLocalPostgres({
      dir: path.join(os.tmpdir(), `assay-bench-memory-pg-${process.pid}`),
      persistent: false,
    });
    await postgres.query(`CREATE DATABASE "bench"`);
    url = postgres.url("bench");
  }
  try {
    console.log(`\n== ${store === "sqlite" ? "SQLite" : "PostgreSQL"}`);
    await applyPendingMigrations(url);
    const env = { ...process.env, DATABASE_URL: url, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
    let allOk = true;
    const upload = async (rows: number) => {
      const result = await measure(process.execPath, [self, "upload", url, String(rows)], env);
      if (result.code !== 0) throw new Error(`the ${rows}-row upload failed`);
      const rate = Math.round(rows / result.seconds).toLocaleString("en-US");
      allOk =
        report(
          `upload ${rows.toLocaleString("en-US")} rows (JSONL, ${CHUNKS} chunks)`,
          result.peakMb,
          `; ${result.seconds.toFixed(0)} s, ${rate} rows/s`,
        ) && allOk;
      return /dataset (\S+)/.exec(result.stdout)?.[1] ?? "";
    };
    if (ROWS > 0) allOk = (await benchCli(store, dir, env, await upload(ROWS))) && allOk;
    if (UPLOAD_ROWS > 0) await upload(UPLOAD_ROWS);
    return allOk;
  } finally {
    await postgres?.stop();
  }
}

/** The CLI judging and exporting the dataset: true when every figure is under the target. */
async function benchCli(store: Store, dir: string, env: NodeJS.ProcessEnv, datasetId: string): Promise<boolean> {
  let allOk = true;

  const csv = path.join(dir, `${store}-results.csv`);
  const cliPhase = (line: string) =>
    line.startsWith("Estimate:")
      ? "judging"
      : /^Run \S+ ".*": /.test(line)
        ? "export"
        : line.startsWith("Results written")
          ? "done"
          : null;
  if (PLAN_JUDGES) {
    const planned = await measure(
      process.execPath,
      [
        "scripts/run-compiled.mjs",
        "scripts/eval.ts",
        "--quiet",
        "--judge-model",
        "heuristic",
        "--judges",
        PLAN_JUDGES,
      ].concat(["--dataset-id", datasetId, "--name", "memory bench plan"]),
      env,
      cliPhase,
      "judging",
    );
    if (!/^Estimate:/m.test(planned.stdout)) throw new Error(`planning failed:\n${planned.stdout.slice(-2000)}`);
    allOk =
      report(
        `CLI plan only (judges ${PLAN_JUDGES})`,
        planned.phases.get("start") ?? 0,
        `; ${planned.seconds.toFixed(0)} s`,
      ) && allOk;
  }
  const fake = LLM ? await startFakeServerProcess(process.cwd(), LATENCY_MS) : null;
  const judgeEnv = fake ? { ...env, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench-key" } : env;
  const judgeModel = fake
    ? ["--judge-model", "bench-judge", "--concurrency", CONCURRENCY]
    : ["--judge-model", "heuristic"];
  const evalArgs = ["scripts/run-compiled.mjs", "scripts/eval.ts", "--quiet"];
  const judges = ["--judges", JUDGES];
  const judged = await measure(
    process.execPath,
    [...evalArgs, ...judgeModel, ...judges, "--dataset-id", datasetId, "--name", "memory bench", "--out", csv],
    judgeEnv,
    cliPhase,
  ).finally(() => fake?.stop());
  const runId = /Run (\S+) "/.exec(judged.stdout)?.[1];
  if (judged.code === null || judged.code > 1 || !runId)
    throw new Error(`npm run eval failed (exit ${judged.code}):\n${judged.stdout.slice(-2000)}`);
  const phase = (name: string) => judged.phases.get(name) ?? 0;
  // Each phase's figure is the high-water mark at its end: what it reached, or what came before it.
  allOk = report(`CLI plan (${ROWS.toLocaleString("en-US")} rows × judges ${JUDGES})`, phase("start")) && allOk;
  const judgedBy = fake ? `fake OpenAI server, ${LATENCY_MS} ms a call, ${CONCURRENCY} in flight` : "heuristic judge";
  allOk = report(`CLI plan + judge (${judgedBy})`, Math.max(phase("start"), phase("judging"))) && allOk;
  allOk = report(`CLI plan + judge + export CSV`, judged.peakMb, `; ${judged.seconds.toFixed(0)} s in all`) && allOk;
  const json = path.join(dir, `${store}-results.json`);
  const exported = await measure(process.execPath, [...evalArgs, "--resume", runId, "--out", json], env);
  if (exported.code === null || exported.code > 1) throw new Error(`the JSON export failed (exit ${exported.code})`);
  allOk = report(`CLI export JSON (--resume)`, exported.peakMb, `; ${exported.seconds.toFixed(0)} s`) && allOk;
  console.log(
    `  (files: CSV ${(fs.statSync(csv).size / MB).toFixed(0)} MB, JSON ${(fs.statSync(json).size / MB).toFixed(0)} MB)`,
  );
  fs.rmSync(csv, { force: true });
  fs.rmSync(json, { force: true });
  return allOk;
}

async function main(): Promise<void> {
  const [phase, url, rows] = process.argv.slice(2);
  if (phase === "upload" && url && rows) return uploadChild(url, Number(rows));
  const unknown = STORES.filter((store) => store !== "sqlite" && store !== "postgres");
  if (unknown.length > 0) throw new Error(`BENCH_STORES takes sqlite, postgres or both, not "${unknown.join(",")}"`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-memory-"));
  let allOk = true;
  try {
    for (const store of STORES) allOk = (await benchStore(store, process.argv[1], dir)) && allOk;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!allOk) process.exitCode = 1;
}

await main();

// npm run bench:engine — what the evaluation engine costs in CPU and memory while it waits on a judge
// model. The CLI (`npm run eval`) and the worker (`npm run worker`) each judge every Databricks judge on
// synthetic rows with 4 retrieved chunks, against the fake OpenAI server in a process of its own, on a
// temporary SQLite file and a throwaway PostgreSQL; each case is a fresh process, run under /usr/bin/time
// (its CPU, start-up included, and peak RSS) and sampled through /proc. One line per case against the
// targets: ≤ 1 ms CPU per LLM call at 16 and 64 in flight; efficiency (calls × latency ÷ concurrency over
// the judging phase's wall time) ≥ 0.97 at 64 and ≥ 0.95 at 256; peak RSS ≤ 200 MB; and, at 2,000 ms a call
// with 64 in flight, ≤ 0.02 of a core while every call is waiting. After the first store's cases, a reference
// line per concurrency and latency: the same requests sent by the openai SDK alone (engineFloorCase.ts), the
// floor under the engine's figures. Then a CPU profile of the CLI (SQLite, 64, 200 ms), its functions by self
// time, and a summary line. Asserts nothing.
// Knobs: BENCH_QUICK=1 (small sizes), BENCH_PROCESSES (cli,worker), BENCH_STORES (sqlite,postgres),
// BENCH_CONCURRENCY (16,64,256), BENCH_LATENCIES (200,0), BENCH_ROWS (2000: rows at 64 in flight and above),
// BENCH_ROWS_LOW (2000: below 64, the size issue 43 measured at 16; fewer rows make the process's start a larger
// share of each call), BENCH_IDLE_ROWS (80; 0 skips the idle cases), BENCH_IDLE_LATENCY_MS (2000), BENCH_PROFILE
// (1; 0 skips it), BENCH_FLOOR (1; 0 skips the reference lines), BENCH_PROFILE_CASE (concurrency,latency ms,
// rows of the profiled case; 64,200,2000), BENCH_KEEP_PROFILE (a path to copy the .cpuprofile to),
// BENCH_NODE_ARGS (flags for every measured node process, e.g. "--max-semi-space-size=8", to compare runtime
// settings).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import esbuild from "esbuild";
import { z } from "zod";
import { closeDb, createDb, databaseUrlOf, type Db } from "../../lib/db/client";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { getRun } from "../../lib/db/runs/runQueries";
import { startLocalPostgres, type LocalPostgres } from "../../lib/db/store/embeddedPostgres";
import { createRun } from "../../lib/engine/createRun";
import { BUILT_IN_METRICS } from "../../lib/engine/runConfig";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { bundleEntry } from "../bundleEntry.mjs";
import { ENGINE_NODE_FLAGS } from "../engineNodeFlags.mjs";
import { importBenchRows, openBenchStore } from "./benchStore";
import {
  idleCpuCores,
  killLiveProcesses,
  selfTimeByArea,
  selfTimes,
  startMeasured,
  threadCpuNs,
  type IdleSample,
  type Measured,
  type MeasuredProcess,
} from "./engineCostCases";
import { runFloorCase, type FloorOutcome } from "./engineFloorCase";
import { getJson, startFakeServerProcess, type FakeServerProcess } from "./startFakeServerProcess";

const QUICK = process.env.BENCH_QUICK === "1";
const numbers = (name: string, fallback: string) =>
  (process.env[name] ?? fallback).split(",").filter(Boolean).map(Number);
const PROCESSES = (process.env.BENCH_PROCESSES ?? "cli,worker").split(",") as ProcessKind[];
const STORES = (process.env.BENCH_STORES ?? "sqlite,postgres").split(",") as StoreKind[];
const CONCURRENCIES = numbers("BENCH_CONCURRENCY", "16,64,256");
const LATENCIES = numbers("BENCH_LATENCIES", "200,0");
const [ROWS] = numbers("BENCH_ROWS", QUICK ? "200" : "2000");
const [ROWS_LOW] = numbers("BENCH_ROWS_LOW", QUICK ? "60" : "2000");
const [IDLE_ROWS] = numbers("BENCH_IDLE_ROWS", QUICK ? "40" : "80");
const [IDLE_LATENCY_MS] = numbers("BENCH_IDLE_LATENCY_MS", "2000");
const IDLE_CONCURRENCY = 64;
const PROFILE = process.env.BENCH_PROFILE !== "0";
const FLOOR = process.env.BENCH_FLOOR !== "0";
// As npm run eval and npm run worker start them, then the benchmark's own (a later flag wins).
const NODE_ARGS = [...ENGINE_NODE_FLAGS, ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
const CHUNKS = 4;
const TARGET = { cpuMsPerCall: 1, idleCores: 0.02, peakRssMb: 200, efficiency: { 64: 0.97, 256: 0.95 } as const };

type ProcessKind = "cli" | "worker";
type StoreKind = "sqlite" | "postgres";
type Case = { process: ProcessKind; store: StoreKind; concurrency: number; latencyMs: number; rows: number };
type Verdict = "MET" | "MISSED" | "info";
type Outcome = Case &
  Measured & { calls: number; judgingS: number; maxInFlight: number; idle?: number | null; idleWindowS?: number };

const statsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });
const root = process.cwd();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-engine-cost-"));
// Not inside `tmp`: run as root, the server runs as nobody, who may not enter a mkdtemp folder (mode 0700).
const postgresDir = path.join(os.tmpdir(), `assay-bench-engine-cost-pg-${process.pid}`);
const verdicts: { verdict: Verdict; label: string }[] = [];
const fakeServers = new Map<number, Promise<FakeServerProcess>>();

async function main(): Promise<void> {
  const bundles = { cli: compile("scripts/eval.ts", "eval-cost"), worker: compile("scripts/worker.ts", "worker-cost") };
  const floorBundle = compile("scripts/bench/sdkFloorClient.ts", "sdk-floor");
  const floors: FloorOutcome[] = [];
  let postgres: LocalPostgres | null = null;
  const cpuOutcomes: Outcome[] = [];
  const idleFigures: number[] = [];
  console.log(
    `bench:engine: ${BUILT_IN_METRICS.length} Databricks metrics, ${CHUNKS} chunks a row; ${ROWS} rows at ≥ 64 in flight, ${ROWS_LOW} below; one process per case\n`,
  );
  try {
    for (const store of STORES) {
      const opened = store === "sqlite" ? await openBenchStore("assay-bench-engine-cost-") : null;
      if (store === "postgres") postgres ??= await startLocalPostgres({ dir: postgresDir, persistent: false });
      const db = opened?.db ?? (await openPostgresStore(postgres));
      const datasets = new Map<number, Promise<string>>();
      const datasetOf = (rows: number) => {
        if (!datasets.has(rows))
          datasets.set(rows, importBenchRows(db, syntheticRows(rows, CHUNKS), `cost-${rows}.jsonl`));
        return datasets.get(rows) as Promise<string>;
      };
      for (const kind of PROCESSES)
        for (const concurrency of CONCURRENCIES)
          for (const latencyMs of LATENCIES) {
            const rows = concurrency >= 64 ? ROWS : ROWS_LOW;
            const c = { process: kind, store, concurrency, latencyMs, rows };
            const outcome = await runCase(db, bundles, c, datasetOf);
            cpuOutcomes.push(outcome);
            console.log(formatOutcome(outcome));
          }
      if (FLOOR && floors.length === 0) {
        console.log(
          "reference: the same requests sent by the openai SDK over Assay's fetch, nothing else in the process",
        );
        for (const concurrency of CONCURRENCIES)
          for (const latencyMs of LATENCIES) {
            const calls = cpuOutcomes.find((o) => o.concurrency === concurrency && o.latencyMs === latencyMs)?.calls;
            if (!calls) continue;
            const fake = await fakeServerAt(latencyMs);
            const floor = await runFloorCase({
              bundle: floorBundle,
              fake,
              nodeArgs: NODE_ARGS,
              tmp,
              concurrency,
              latencyMs,
              calls,
            });
            floors.push(floor);
            console.log(formatFloor(floor));
          }
      }
      if (IDLE_ROWS > 0)
        for (const kind of PROCESSES) {
          const idleCase = { process: kind, store, concurrency: IDLE_CONCURRENCY, rows: IDLE_ROWS };
          const waiting = await runCase(db, bundles, { ...idleCase, latencyMs: IDLE_LATENCY_MS }, datasetOf, true);
          const reference = await runCase(db, bundles, { ...idleCase, latencyMs: 0 }, datasetOf);
          // The CPU the waiting run spent beyond the same work at once, spread over its wall time.
          const beyondInstant = (waiting.cpuMs - reference.cpuMs) / 1000 / waiting.wallS;
          idleFigures.push(waiting.idle ?? beyondInstant);
          console.log(formatOutcome(waiting, beyondInstant));
        }
      if (store === "sqlite" && PROFILE) await profileCli(db, datasetOf);
      if (opened) await opened.close();
      else await closeDb(db);
    }
  } finally {
    for (const server of fakeServers.values()) (await server).stop();
    await postgres?.stop();
    for (const dir of [tmp, postgresDir]) fs.rmSync(dir, { recursive: true, force: true });
  }
  const targeted = cpuOutcomes.filter((o) => [16, 64].includes(o.concurrency) && o.calls > 0);
  const worst = targeted.sort((a, b) => b.cpuMs / b.calls - a.cpuMs / a.calls)[0];
  const met = verdicts.filter((v) => v.verdict === "MET").length;
  const judged = verdicts.filter((v) => v.verdict !== "info").length;
  console.log(
    `\nbench:engine: ${met} of ${judged} targets met` +
      (worst ? `; worst CPU per call ${(worst.cpuMs / worst.calls).toFixed(2)} ms (${caseName(worst)})` : "") +
      (idleFigures.length > 0 ? `; idle ≤ ${Math.max(...idleFigures).toFixed(4)} cores` : "") +
      (floors.length > 0 ? `; the SDK alone ${floorRange(floors)}` : "") +
      (judged > met
        ? `; missed: ${verdicts
            .filter((v) => v.verdict === "MISSED")
            .map((v) => v.label)
            .join(", ")}`
        : ""),
  );
}

/** One case in a fresh process: a CLI judging the dataset, or a worker judging a run queued before it starts. */
async function runCase(
  db: Db,
  bundles: Record<ProcessKind, string>,
  c: Case,
  datasetOf: (rows: number) => Promise<string>,
  sampleIdle = false,
  extraNodeArgs: string[] = [],
  bundle = bundles[c.process],
): Promise<Outcome> {
  const fake = await fakeServerAt(c.latencyMs);
  const stats = () => getJson(`${fake.control}/stats`, statsSchema);
  const datasetId = await datasetOf(c.rows);
  // A model name per case: a later case must not find an earlier one's answers in the judge cache.
  const model = `cost-${c.process}-${c.concurrency}-${c.latencyMs}-${c.rows}${extraNodeArgs.length > 0 ? "-profiled" : ""}`;
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    DATABASE_URL: databaseUrlOf(db),
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "sk-bench-engine-cost-0000",
    ASSAY_LLM_MAX_IN_FLIGHT: String(c.concurrency),
    // The worker looks for runs at its default interval (ASSAY_WORKER_POLL_MS unset, 2 s), as deployed:
    // bench:scale's 200 ms would add idle work a deployed worker does not do.
  };
  await getJson(`${fake.control}/reset`, z.unknown());
  const before = await stats();
  const timeFile = path.join(tmp, "time.txt");
  let runId: string | null = null;
  let measured: MeasuredProcess;
  if (c.process === "cli") {
    const cliArgs = ["--dataset-id", datasetId, "--judge-model", model, "--concurrency", String(c.concurrency)];
    measured = await startMeasured([...NODE_ARGS, ...extraNodeArgs, bundle, ...cliArgs, "--quiet"], env, timeFile);
  } else {
    runId = await createRun(db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "openai", model },
      concurrency: c.concurrency,
    });
    measured = await startMeasured([...NODE_ARGS, ...extraNodeArgs, bundle], env, timeFile);
  }
  const samples: IdleSample[] = [];
  let running = true;
  const sampling = (async () => {
    while (sampleIdle && running) {
      try {
        const cpu = threadCpuNs(measured.pid);
        samples.push({ ...cpu, requests: (await stats()).totalRequests, atMs: performance.now() });
      } catch {
        // the process has just exited
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  if (runId) {
    await waitForRun(db, runId);
    measured.stop();
  }
  const result = await measured.exited;
  running = false;
  await sampling;
  if (c.process === "cli") {
    runId = /Run (\S+) "/.exec(result.stdout)?.[1] ?? null;
    if (result.code === null || result.code > 1 || !runId) throw new Error(`the CLI failed (${result.code})`);
  }
  const run = runId ? await getRun(db, runId) : null;
  if (!run || run.status !== "completed") throw new Error(`${caseName(c)}: the run did not complete`);
  const after = await stats();
  const idle = sampleIdle ? idleCpuCores(samples, c.latencyMs, c.concurrency) : undefined;
  return {
    ...c,
    ...result,
    calls: after.totalRequests - before.totalRequests,
    judgingS: ((run.finishedAt?.getTime() ?? 0) - (run.startedAt?.getTime() ?? 0)) / 1000,
    maxInFlight: after.maxInFlight,
    ...(idle !== undefined ? { idle: idle?.cores ?? null, idleWindowS: idle?.seconds ?? 0 } : {}),
  };
}

async function waitForRun(db: Db, runId: string): Promise<void> {
  for (;;) {
    const status = (await getRun(db, runId))?.status;
    if (status === "completed") return;
    if (status === "failed" || status === "cancelled") throw new Error(`run ${runId} ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The CLI (SQLite, 64 in flight, 200 ms) again under --cpu-prof, its functions by self time. */
async function profileCli(db: Db, datasetOf: (rows: number) => Promise<string>): Promise<void> {
  const profileDir = path.join(tmp, "profile");
  // The same bundle as the measured CLI's, with a source map, so a function is named by its .ts file.
  const bundle = path.join(root, "node_modules", ".cache", "assay-compiled", "eval-cost-profiled.mjs");
  esbuild.buildSync({
    entryPoints: ["scripts/eval.ts"],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile: bundle,
    sourcemap: true,
    logLevel: "warning",
  });
  const [concurrency, latencyMs, rows] = numbers("BENCH_PROFILE_CASE", `64,200,${ROWS}`);
  const c: Case = { process: "cli", store: "sqlite", concurrency, latencyMs, rows };
  const outcome = await runCase(db, { cli: bundle, worker: "" }, c, datasetOf, false, [
    "--cpu-prof",
    `--cpu-prof-dir=${profileDir}`,
  ]);
  const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("the profiled CLI wrote no .cpuprofile");
  if (process.env.BENCH_KEEP_PROFILE) fs.copyFileSync(path.join(profileDir, file), process.env.BENCH_KEEP_PROFILE);
  const { total, top } = selfTimes(path.join(profileDir, file), root, bundle);
  console.log(
    // V8 samples the main thread by the clock: a synchronous system call counts as busy, other threads not at all.
    `\nCPU profile: ${caseName(c)}, ${outcome.calls} calls; ${total.toFixed(0)} ms of main-thread samples (not idle), ` +
      `${(total / Math.max(1, outcome.calls)).toFixed(2)} ms per call (${(outcome.cpuMs / Math.max(1, outcome.calls)).toFixed(2)} by rusage, profiler included)`,
  );
  const line = (t: { where: string; ms: number }) =>
    `  ${t.ms.toFixed(0).padStart(6)} ms ${((t.ms / total) * 100).toFixed(1).padStart(5)} %  ${t.where}`;
  console.log("top functions by self time:");
  for (const t of top.slice(0, 15)) console.log(line(t));
  console.log("self time by where the code lives:");
  for (const t of selfTimeByArea(top).slice(0, 10)) console.log(line(t));
}

function formatOutcome(o: Outcome, beyondInstant?: number): string {
  const cpuPerCall = o.cpuMs / Math.max(1, o.calls);
  const ideal = (o.calls * o.latencyMs) / 1000 / o.concurrency;
  const efficiency = o.latencyMs > 0 && o.judgingS > 0 ? ideal / o.judgingS : null;
  const efficiencyTarget = o.idle === undefined && o.latencyMs > 0 ? TARGET.efficiency[o.concurrency as 64] : undefined;
  const cpuTargeted = o.idle === undefined && (o.concurrency === 16 || o.concurrency === 64);
  const parts = [
    caseName(o).padEnd(31),
    `${String(o.calls).padStart(6)} calls`,
    `wall ${o.judgingS.toFixed(1).padStart(5)} s`,
    `efficiency ${efficiency === null ? "  n/a" : efficiency.toFixed(3)} ${mark(efficiency !== null && efficiencyTarget !== undefined ? efficiency >= efficiencyTarget : null, `efficiency ${caseName(o)}`)}`,
    `CPU ${cpuPerCall.toFixed(3)} ms/call ${mark(cpuTargeted ? cpuPerCall <= TARGET.cpuMsPerCall : null, `CPU ${caseName(o)}`)}`,
    `peak RSS ${o.peakRssMb.toFixed(0).padStart(3)} MB ${mark(o.peakRssMb <= TARGET.peakRssMb, `RSS ${caseName(o)}`)}`,
    `in flight ≤ ${o.maxInFlight}`,
  ];
  if (o.idle !== undefined) {
    const idle = o.idle ?? beyondInstant ?? 0;
    parts.push(
      `idle ${o.idle === null ? "n/a (no window)" : o.idle.toFixed(4)} cores over ${(o.idleWindowS ?? 0).toFixed(1)} s while all ${o.concurrency} wait, ` +
        `${(beyondInstant ?? 0).toFixed(4)} beyond the 0 ms run ${mark(idle <= TARGET.idleCores, `idle ${caseName(o)}`)}`,
    );
  }
  return parts.join(" · ");
}

/** A reference line: no target applies to the SDK alone; it says what the engine's targets stand on. */
function formatFloor(f: FloorOutcome): string {
  const ideal = (f.calls * f.latencyMs) / 1000 / f.concurrency;
  const efficiency = f.latencyMs > 0 ? (ideal / f.judgingS).toFixed(3) : "  n/a";
  return [
    `SDK alone c=${f.concurrency} ${f.latencyMs} ms`.padEnd(31),
    `${String(f.calls).padStart(6)} calls`,
    `wall ${f.judgingS.toFixed(1).padStart(5)} s`,
    `efficiency ${efficiency}`,
    `CPU ${(f.cpuMs / f.calls).toFixed(3)} ms/call`,
    `peak RSS ${f.peakRssMb.toFixed(0).padStart(3)} MB`,
  ].join(" · ");
}

function floorRange(floors: FloorOutcome[]): string {
  const perCall = (f: FloorOutcome) => f.cpuMs / f.calls;
  const sorted = [...floors].sort((a, b) => perCall(a) - perCall(b));
  const name = (f: FloorOutcome) => `c=${f.concurrency} ${f.latencyMs} ms`;
  const [low, high] = [sorted[0], sorted[sorted.length - 1]];
  return `${perCall(low).toFixed(2)} ms a call (${name(low)}) to ${perCall(high).toFixed(2)} (${name(high)})`;
}

/** The verdict on one figure, counted for the summary; null when no target applies to it. */
function mark(met: boolean | null, label: string): string {
  const verdict: Verdict = met === null ? "info" : met ? "MET" : "MISSED";
  verdicts.push({ verdict, label });
  return verdict;
}

function caseName(c: Case): string {
  return `${c.process} ${c.store} c=${c.concurrency} ${c.latencyMs} ms`;
}

function compile(entry: string, name: string): string {
  const outfile = path.join(root, "node_modules", ".cache", "assay-compiled", `${name}.mjs`);
  if (bundleEntry(entry, outfile, { root }) !== 0) throw new Error(`${entry} did not compile`);
  return outfile;
}

async function openPostgresStore(server: LocalPostgres | null): Promise<Db> {
  if (!server) throw new Error("no PostgreSQL server");
  await server.query(`CREATE DATABASE "cost"`);
  await applyPendingMigrations(server.url("cost"));
  return createDb(server.url("cost"));
}

/** One fake server per latency (it is the server's start-up argument), started when first needed. */
function fakeServerAt(latencyMs: number): Promise<FakeServerProcess> {
  if (!fakeServers.has(latencyMs)) fakeServers.set(latencyMs, startFakeServerProcess(root, latencyMs));
  return fakeServers.get(latencyMs) as Promise<FakeServerProcess>;
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    killLiveProcesses();
    process.exit(130);
  });

main().catch((error: unknown) => {
  console.error(error);
  killLiveProcesses();
  process.exit(1);
});

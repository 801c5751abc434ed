// npm run bench:agents: an agent dataset at a team's size. 2,000 rows of MLflow 3 traces (5 to 20 spans each)
// and one row with a 200-span trace are uploaded to the production server over HTTP, as the browser does
// (time, the server's peak memory against the file's size); a run of every agent metric (the four without
// a model and the five LLM judges) at 16 calls in flight against the fake OpenAI server at 200 ms a call
// (efficiency: calls per second against the ideal 16 ÷ 0.2 s, the most in flight the server saw); then the
// drill-down of the 200-span row, timed warm (median of 9 after one). Knobs: BENCH_AGENT_ROWS (2000),
// BENCH_AGENT_UPLOAD_ONLY=1 (the upload alone: its memory at a larger size),
// BENCH_LATENCY_MS (200), BENCH_LIMIT (16), BENCH_SKIP_BUILD=1 to reuse .next. Not a test: it measures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { closeDb, createDb } from "../../lib/db/client";
import { getRun } from "../../lib/db/runs/runQueries";
import { createRun } from "../../lib/engine/createRun";
import { createEngineDeps } from "../../lib/engine/engineDeps";
import { runEvaluation } from "../../lib/engine/runEvaluation";
import { readLlmConfig } from "../../lib/llm/llmConfig";
import { metricsOfFamily } from "../../lib/metrics/metricNames";
import { agentRow, agentRows } from "./agentRows";
import { getJson, startFakeServerProcess } from "./startFakeServerProcess";
import { processTreeRss, startServerForBench } from "./startServerForBench";

const ROWS = Number(process.env.BENCH_AGENT_ROWS ?? 2_000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 16);
const MB = 1024 * 1024;
const statsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });
const uploadDoneSchema = z.object({ ok: z.literal(true), datasetId: z.string() }).loose();

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-agents-"));
  const file = path.join(dir, "agents.jsonl");
  const out = fs.openSync(file, "w");
  for (const row of agentRows(ROWS)) fs.writeSync(out, `${JSON.stringify(row)}\n`);
  // The drill-down's case: one trace of 200 spans.
  fs.writeSync(out, `${JSON.stringify({ ...agentRow(ROWS, 200), request_id: "agent-200-spans" })}\n`);
  fs.closeSync(out);
  const size = fs.statSync(file).size;
  console.log(
    `dataset: ${(ROWS + 1).toLocaleString("en-US")} rows (5–20 spans each, one of 200), ${(size / MB).toFixed(1)} MB`,
  );

  const fake = await startFakeServerProcess(process.cwd(), LATENCY_MS);
  const server = await startServerForBench({ skipBuild: process.env.BENCH_SKIP_BUILD === "1" });
  const db = createDb(server.databaseUrl);
  try {
    // Warm the route once so compilation-on-first-hit does not count as the upload's memory.
    await fetch(`${server.baseUrl}/api/datasets/upload?filename=warm.jsonl`, {
      method: "POST",
      body: '{"request":"warm"}\n',
    }).then((r) => r.text());
    const baseline = processTreeRss(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, processTreeRss(server.pid))), 50);
    const uploadStarted = performance.now();
    const response = await fetch(`${server.baseUrl}/api/datasets/upload?filename=agents.jsonl&name=agents`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "content-length": String(size) },
      body: fs.createReadStream(file) as unknown as BodyInit,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    const lines = (await response.text()).trim().split("\n");
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    clearInterval(sampler);
    const done = uploadDoneSchema.parse(JSON.parse(lines.at(-1) ?? "{}"));
    const toolCalls = await db.toolCall.count({ where: { row: { datasetId: done.datasetId }, kind: "called" } });
    console.log(
      `upload: ${uploadSeconds.toFixed(1)} s; ${toolCalls.toLocaleString("en-US")} tool calls stored; server RSS ${(baseline / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB peak (+${((peak - baseline) / MB).toFixed(0)} MB for a ${(size / MB).toFixed(0)} MB file)`,
    );

    // BENCH_AGENT_UPLOAD_ONLY=1: the upload's memory at larger sizes, without the run (it grows with the rows).
    if (process.env.BENCH_AGENT_UPLOAD_ONLY === "1") return;
    const metrics = metricsOfFamily("agent");
    const runId = await createRun(db, {
      datasetId: done.datasetId,
      metrics,
      judge: { provider: "openai", model: "bench-agents" },
      concurrency: LIMIT,
    });
    const run = await getRun(db, runId);
    if (!run) throw new Error("the run was not created");
    const llmConfig = readLlmConfig({ OPENAI_API_KEY: "sk-bench-agents-0000", OPENAI_BASE_URL: fake.url });
    await getJson(`${fake.control}/reset`, z.unknown());
    const before = statsSchema.parse(await getJson(`${fake.control}/stats`, z.unknown()));
    const started = performance.now();
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig }));
    const seconds = (performance.now() - started) / 1000;
    const after = statsSchema.parse(await getJson(`${fake.control}/stats`, z.unknown()));
    const calls = after.totalRequests - before.totalRequests;
    const ideal = LIMIT / (LATENCY_MS / 1000);
    const efficiency = calls / seconds / ideal;
    const judgments = await db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
    console.log(
      `run (${metrics.length} agent metrics): ${outcome.status} in ${seconds.toFixed(1)} s; ${calls.toLocaleString("en-US")} LLM calls = ${(calls / seconds).toFixed(1)}/s against an ideal ${ideal.toFixed(0)}/s: efficiency ${efficiency.toFixed(2)} (target ≥ 0.9); most in flight ${after.maxInFlight} (limit ${LIMIT}); judgments ${judgments.map((g) => `${g.status} ${g._count._all}`).join(", ")}`,
    );

    const big = await db.datasetRow.findFirstOrThrow({
      where: { datasetId: done.datasetId, requestId: "agent-200-spans" },
    });
    const page = `${server.baseUrl}/runs/${runId}/rows/${big.id}`;
    const first = await timedGet(page);
    const times: number[] = [];
    for (let i = 0; i < 9; i += 1) times.push(await timedGet(page));
    times.sort((a, b) => a - b);
    const median = times[4];
    console.log(
      `drill-down of the 200-span trace: median ${median.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[8].toFixed(0)}, first ${first.toFixed(0)}; target < 300 ms)`,
    );
    console.log(
      `\nsummary: upload of ${(ROWS + 1).toLocaleString("en-US")} traced rows +${((peak - baseline) / MB).toFixed(0)} MB server RSS; efficiency ${efficiency.toFixed(2)} ${efficiency >= 0.9 ? "ok" : "UNDER"} (≥ 0.9), in flight ≤ ${LIMIT}: ${after.maxInFlight <= LIMIT ? "yes" : "NO"}; 200-span drill-down ${median.toFixed(0)} ms ${median < 300 ? "ok" : "OVER"} (< 300)`,
    );
  } finally {
    await closeDb(db);
    server.stop();
    fake.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
  return performance.now() - started;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

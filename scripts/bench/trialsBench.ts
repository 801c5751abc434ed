// npm run bench:trials — a run at a user's size with trials: 2,000 rows × 4 chunks judged 3 times by
// correctness and chunk relevance (batched) against a fake OpenAI server answering every call after 200 ms,
// 16 calls in flight. Prints the calls against the run's estimate, the efficiency against the ideal
// (calls × 200 ms / 16) with its target (≥ 0.9), the engine's CPU per call and the peak RSS. Asserts nothing.
import { z } from "zod";
import { getRun } from "../../lib/db/runs/runQueries";
import { createRun } from "../../lib/engine/createRun";
import { createEngineDeps } from "../../lib/engine/engineDeps";
import { estimateRunSpending } from "../../lib/engine/runEstimate";
import { runEvaluation } from "../../lib/engine/runEvaluation";
import { readLlmConfig } from "../../lib/llm/llmConfig";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { importBenchRows, openBenchStore } from "./benchStore";
import { getJson, startFakeServerProcess } from "./startFakeServerProcess";

const ROWS = Number(process.env.BENCH_TRIALS_ROWS ?? 2000);
const CHUNKS = 4;
const TRIALS = 3;
const CONCURRENCY = 16;
const LATENCY_S = 0.2;
const METRICS = ["response/llm_judged/correctness", "retrieval/llm_judged/chunk_relevance"];
const EFFICIENCY_TARGET = 0.9;

const statsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });

async function main(): Promise<void> {
  const root = process.cwd();
  const fake = await startFakeServerProcess(root, LATENCY_S * 1000);
  const store = await openBenchStore("assay-bench-trials-");
  const db = store.db;
  const datasetId = await importBenchRows(db, syntheticRows(ROWS, CHUNKS));
  const llmConfig = readLlmConfig({ OPENAI_API_KEY: "sk-bench-0000", OPENAI_BASE_URL: fake.url });

  const runId = await createRun(db, {
    datasetId,
    metrics: METRICS,
    judge: { provider: "openai", model: "bench-trials" },
    concurrency: CONCURRENCY,
    trials: TRIALS,
  });
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} was not stored`);
  const estimate = await estimateRunSpending(db, runId, {
    judgeModel: run.judgeModel,
    generationModel: null,
    chunkMode: run.config.chunkMode,
    heuristic: false,
    prices: {},
    trials: TRIALS,
    gEvalStepWriters: new Set(), // the bench runs no G-Eval judge
  });
  await getJson(`${fake.control}/reset`, z.unknown());
  const deps = createEngineDeps(db, run, { llmConfig });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const outcome = await runEvaluation(run, deps);
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const stats = await getJson(`${fake.control}/stats`, statsSchema);
  const calls = stats.totalRequests;
  const ideal = (calls * LATENCY_S) / CONCURRENCY;
  const efficiency = ideal / wall;

  console.log(
    `trials benchmark: ${ROWS} rows × ${CHUNKS} chunks × ${TRIALS} trials, ${METRICS.length} judges, ${CONCURRENCY} in flight, fake server ${LATENCY_S * 1000} ms a call\n`,
  );
  console.log(
    `  status              ${outcome.status} (${outcome.judgments.done} done, ${outcome.judgments.error} errors)`,
  );
  console.log(
    `  LLM calls           ${calls} (estimate before the run: ${estimate.llmCalls}; ${calls === estimate.llmCalls ? "equal" : "DIFFERENT"})`,
  );
  console.log(`  max in flight       ${stats.maxInFlight} (limit ${CONCURRENCY})`);
  console.log(
    `  wall time           ${wall.toFixed(1)} s (ideal ${ideal.toFixed(1)} s = calls × ${LATENCY_S} s / ${CONCURRENCY})`,
  );
  console.log(`  engine CPU per call ${((cpu.user + cpu.system) / 1000 / calls).toFixed(2)} ms`);
  console.log(`  peak RSS            ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  console.log(
    `\nefficiency ${efficiency.toFixed(3)} (target ≥ ${EFFICIENCY_TARGET}: ${efficiency >= EFFICIENCY_TARGET ? "met" : "MISSED"}); calls ${calls === estimate.llmCalls ? "equal" : "differ from"} the estimate`,
  );

  await store.close();
  fake.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

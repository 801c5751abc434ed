// npm run bench — the engine against a fake OpenAI server with a fixed 200 ms
// latency: 200 rows × 4 chunks, the full judge suite, at concurrency 16 and 64,
// then a re-run that must make 0 calls; then the same for
// DeepEval's and Mastra's score metrics (with the statistical scorers and one G-Eval judge) on the
// same rows with their ideal context's contents (so hallucination has work); then DeepEval's metrics
// with DeepEval's own call structure, beside the folded calls.
// Prints the figures, with LLM calls per row per metric for each suite; asserts nothing.
import { z } from "zod";
import { countJudgmentsByMetric, getRun, llmCallsByMetric } from "../../lib/db/runs/runQueries";
import { createRun } from "../../lib/engine/createRun";
import { createEngineDeps } from "../../lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "../../lib/engine/runConfig";
import { runEvaluation } from "../../lib/engine/runEvaluation";
import { metricsOfFamily } from "../../lib/metrics/metricNames";
import type { DeepEvalSettingsInput } from "../../lib/contract/deepEvalSettings";
import { readLlmConfig } from "../../lib/llm/llmConfig";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { importBenchRows, openBenchStore } from "./benchStore";
import { getJson, startFakeServerProcess } from "./startFakeServerProcess";

const ROWS = 200;
const CHUNKS = 4;
const LATENCY_S = 0.2;

const serverStatsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });

async function main(): Promise<void> {
  // npm runs scripts from the project root (this file may run bundled from elsewhere).
  const root = process.cwd();
  const fake = await startFakeServerProcess(root, LATENCY_S * 1000);
  const { url, control } = fake;

  const stats = () => getJson(`${control}/stats`, serverStatsSchema);

  const store = await openBenchStore("assay-bench-engine-");
  const db = store.db;
  const datasetId = await importBenchRows(db, syntheticRows(ROWS, CHUNKS));
  const familyDatasetId = await importBenchRows(
    db,
    syntheticRows(ROWS, CHUNKS).map(withIdealContextContents),
    "bench-family.jsonl",
  );
  const llmConfig = readLlmConfig({ OPENAI_API_KEY: "sk-bench-0000", OPENAI_BASE_URL: url });

  console.log(`process RSS before the first run: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
  console.log(
    `engine benchmark: ${ROWS} rows × ${CHUNKS} chunks, full judge suite (${BUILT_IN_METRICS.length} metrics), fake server latency ${LATENCY_S * 1000} ms\n`,
  );
  const SCORE_FAMILY = [
    ...metricsOfFamily("deepeval"),
    ...metricsOfFamily("mastra"),
    ...metricsOfFamily("statistical"),
  ];
  const runOnce = async (
    label: string,
    concurrency: number,
    model: string,
    quiet = false,
    metrics: string[] = BUILT_IN_METRICS,
    family = false,
    deepEval?: DeepEvalSettingsInput,
  ) => {
    await getJson(`${control}/reset`, z.unknown());
    const before = await stats();
    const runId = await createRun(db, {
      datasetId: family ? familyDatasetId : datasetId,
      metrics,
      ...(family && !deepEval ? { gEvalJudges: [G_EVAL_JUDGE] } : {}),
      ...(deepEval ? { deepEval } : {}),
      judge: { provider: "openai", model },
      concurrency,
    });
    const run = await getRun(db, runId);
    if (!run) throw new Error(`run ${runId} was not stored`);
    const deps = createEngineDeps(db, run, { llmConfig });
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const outcome = await runEvaluation(run, deps);
    const wall = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const after = await stats();
    const calls = after.totalRequests - before.totalRequests;
    const judgedMetrics = await countJudgmentsByMetric(db, runId, "openai");
    const llmItems = judgedMetrics.reduce((sum, m) => sum + m.count, 0);
    const ideal = (calls * LATENCY_S) / concurrency;
    if (quiet) return;
    console.log(`${label}`);
    console.log(
      `  status              ${outcome.status} (${outcome.judgments.done} done, ${outcome.judgments.error} errors, ${outcome.judgments.skipped} skipped)`,
    );
    console.log(`  wall time           ${wall.toFixed(2)} s`);
    console.log(`  LLM calls           ${calls}`);
    console.log(`  calls per row       ${(calls / ROWS).toFixed(2)}`);
    console.log(
      `  calls per metric    ${llmItems === 0 ? "n/a" : (calls / llmItems).toFixed(2)} (per LLM-judged metric per row; ${judgedMetrics.length} LLM-judged metrics)`,
    );
    console.log(
      `  max in flight       ${after.maxInFlight} (server's count; limit ${concurrency}; client limiter high-water ${deps.limiter?.maxObserved ?? 0})`,
    );
    if (calls > 0) {
      console.log(`  ideal time          ${ideal.toFixed(2)} s (calls × ${LATENCY_S} s / ${concurrency})`);
      console.log(`  efficiency          ${(ideal / wall).toFixed(3)}`);
      console.log(`  engine CPU per call ${((cpu.user + cpu.system) / 1000 / calls).toFixed(3)} ms`);
    }
    console.log(`  calls per row per metric (Σ attempts / judged rows; errors counted, skipped rows not)`);
    for (const m of await llmCallsByMetric(db, runId))
      console.log(
        `    ${m.metric.padEnd(48)} ${(m.calls / Math.max(1, m.rows)).toFixed(2)}  (${m.rows} rows, ${m.cacheHits} from cache)`,
      );
    const mem = process.memoryUsage();
    console.log(
      `  peak RSS            ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (now: heap ${(mem.heapUsed / 1048576).toFixed(0)} of ${(mem.heapTotal / 1048576).toFixed(0)} MB, external ${(mem.external / 1048576).toFixed(0)} MB, rss ${(mem.rss / 1048576).toFixed(0)} MB)\n`,
    );
  };

  // Warm-up: the first calls pay for loading and compiling the SDK and the engine; the figures below are steady-state.
  await runOnce("warm-up", 16, "bench-warm-up", true);
  await runOnce("concurrency 16", 16, "bench-judge-16");
  await runOnce("concurrency 64", 64, "bench-judge-64");
  await runOnce("re-run of the concurrency-16 configuration (cache)", 16, "bench-judge-16");

  console.log(
    `score family (DeepEval, Mastra): ${SCORE_FAMILY.length} metrics and G-Eval "${G_EVAL_JUDGE.name}", same rows with their ideal context's contents\n`,
  );
  await runOnce("score family, concurrency 16", 16, "bench-score-16", false, SCORE_FAMILY, true);
  await runOnce("score family, concurrency 64", 64, "bench-score-64", false, SCORE_FAMILY, true);
  await runOnce("score family, re-run of concurrency 16 (cache)", 16, "bench-score-16", false, SCORE_FAMILY, true);

  const DEEPEVAL = metricsOfFamily("deepeval");
  console.log(`DeepEval's ${DEEPEVAL.length} metrics, folded calls and DeepEval's own call structure, same rows\n`);
  await runOnce(
    "DeepEval metrics, folded calls, concurrency 64",
    64,
    "bench-deepeval-folded",
    false,
    DEEPEVAL,
    true,
    {},
  );
  await runOnce(
    "DeepEval metrics, DeepEval's own calls, concurrency 64",
    64,
    "bench-deepeval-own",
    false,
    DEEPEVAL,
    true,
    {
      callStructure: "deepeval",
    },
  );

  await store.close();
  fake.stop();
}

const G_EVAL_JUDGE = {
  name: "coherence",
  criteria: "The response is well structured and follows from the input.",
  evaluationParams: ["input" as const, "actual_output" as const],
  threshold: 0.5,
};

const benchRowSchema = z.looseObject({
  retrieved_context: z.array(z.object({ content: z.string(), doc_uri: z.string() })),
});

/** The row with its ideal context (the expected document) given with contents, copied from its first retrieved chunk. */
function withIdealContextContents(row: Record<string, unknown>): Record<string, unknown> {
  const first = benchRowSchema.parse(row).retrieved_context[0];
  return { ...row, expected_retrieved_context: [first] };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

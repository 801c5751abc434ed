// npm run bench:pairwise — a pairwise judgment at a user's size: 2,000 paired rows (two uploads of the same
// requests with different responses, 4 retrieved chunks each) judged in both orders against a fake OpenAI server
// answering every call after 200 ms, 16 calls in flight, through the endpoint's shared limiter as in production.
// Prints the calls against the estimate made before anything was spent, the most calls in flight against the
// limit, the efficiency against the ideal (calls × 200 ms / 16) with its target (≥ 0.9), the CPU per call and
// the peak RSS. Then three fake judges (at random, always the first answer, preferring the candidate's marked
// answers) over 500 paired rows, with what compare reads from each. Asserts nothing.
import { z } from "zod";
import type { Db } from "../../lib/db/client";
import { getPairwiseComparison } from "../../lib/db/pairwise/pairwiseComparisons";
import { readPairwiseCounts } from "../../lib/db/pairwise/pairwiseCounts";
import { createRun } from "../../lib/engine/createRun";
import { judgePairwise } from "../../lib/engine/pairwise/judgePairwise";
import { createPairwiseDeps } from "../../lib/engine/pairwise/pairwiseDeps";
import { estimatePairwise, startPairwise } from "../../lib/engine/pairwise/startPairwise";
import { readLlmConfig } from "../../lib/llm/llmConfig";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { summarizeComparison } from "../../lib/compare/pairwiseResults";
import type { Rate } from "../../lib/stats/pairwiseSummary";
import { startFakeOpenAIServer, type Responder } from "../../tests/support/fakeOpenAIServer";
import {
  firstShownResponder,
  markedRows,
  markerResponder,
  randomPairwiseResponder,
} from "../../tests/support/fakePairwiseResponders";
import { importBenchRows, openBenchStore } from "./benchStore";
import { getJson, startFakeServerProcess } from "./startFakeServerProcess";

const ROWS = Number(process.env.BENCH_PAIRWISE_ROWS ?? 2000);
const CHUNKS = 4;
const CONCURRENCY = 16;
const LATENCY_S = 0.2;
const EFFICIENCY_TARGET = 0.9;
const SCENARIO_ROWS = Number(process.env.BENCH_PAIRWISE_SCENARIO_ROWS ?? 500);

const statsSchema = z.object({ totalRequests: z.number(), maxInFlight: z.number() });

/** A run over one upload; pairwise judging reads only its responses, so it is never judged itself. */
async function runOver(db: Db, datasetId: string): Promise<string> {
  return createRun(db, {
    datasetId,
    metrics: ["response/llm_judged/safety"],
    judge: { provider: "heuristic", model: "offline" },
  });
}

/**
 * Three fake judges over SCENARIO_ROWS paired rows in both orders, each through compare's reading: one answering
 * A, B or tie at random (chance predicts a position consistency of 1/3 and ties in 7 of 9 pairs, and no winner),
 * one that always picks the answer shown first (every pair a position-dependent tie, no winner), and one that
 * prefers the candidate's marked answers (B wins).
 */
async function judgeScenarios(db: Db): Promise<void> {
  const rows = markedRows(SCENARIO_ROWS, "");
  const baseline = await runOver(db, await importBenchRows(db, rows, "scenario-a.jsonl"));
  const candidate = await runOver(
    db,
    await importBenchRows(db, markedRows(SCENARIO_ROWS, "BETTER "), "scenario-b.jsonl"),
  );
  const scenarios: [string, Responder][] = [
    ["a judge answering at random", randomPairwiseResponder(11)],
    ["a judge that always picks the first answer", firstShownResponder],
    ["a judge preferring the marked (candidate's) answers", markerResponder("BETTER")],
  ];
  console.log(`
judges on ${SCENARIO_ROWS} paired rows, both orders (compare's reading, 95% intervals):`);
  for (const [name, responder] of scenarios) {
    const server = await startFakeOpenAIServer({ responder, logRequests: false });
    const stored = await startPairwise(db, {
      baselineRunId: baseline,
      candidateRunId: candidate,
      judgeProvider: "openai",
      judgeModel: `bench-${name}`,
      concurrency: CONCURRENCY,
    });
    const llmConfig = readLlmConfig({ OPENAI_API_KEY: "sk-bench-0000", OPENAI_BASE_URL: server.url });
    await judgePairwise(db, stored.id, await createPairwiseDeps(db, stored, { workerKind: "cli", llmConfig }));
    await server.close();
    const comparison = await getPairwiseComparison(db, stored.id);
    if (!comparison) throw new Error("the comparison was not stored");
    const view = await summarizeComparison(
      db,
      comparison,
      { id: baseline, name: "A", generationModel: null },
      { id: candidate, name: "B", generationModel: null },
      0.05,
    );
    const summary = view.criteria[0].delta.pairwise;
    const rate = (r: Rate | null | undefined) =>
      r ? `${(r.value * 100).toFixed(1)}% (${(r.low * 100).toFixed(1)}–${(r.high * 100).toFixed(1)})` : "n/a";
    console.log(`  ${name}:`);
    console.log(
      `    position consistency ${rate(summary?.positionConsistency)}, first-shown wins ${rate(summary?.firstShownWinRate)}, ties ${rate(summary?.tieRate)} (${summary?.positionDependent} position-dependent)`,
    );
    console.log(`    ${view.criteria[0].delta.words}`);
  }
}

async function main(): Promise<void> {
  const root = process.cwd();
  const fake = await startFakeServerProcess(root, LATENCY_S * 1000);
  const store = await openBenchStore("assay-bench-pairwise-");
  const db = store.db;
  const rows = syntheticRows(ROWS, CHUNKS);
  const baseline = await runOver(db, await importBenchRows(db, rows, "baseline.jsonl"));
  const candidate = await runOver(
    db,
    await importBenchRows(
      db,
      // Every third answer carries the marker the fake judge prefers; the rest differ by one sentence (ties).
      rows.map((row, i) => ({
        ...row,
        response: `${i % 3 === 0 ? "BETTER " : ""}${String(row.response)} It is also worth checking the changelog.`,
      })),
      "candidate.jsonl",
    ),
  );
  const llmConfig = readLlmConfig({ OPENAI_API_KEY: "sk-bench-0000", OPENAI_BASE_URL: fake.url });
  const estimate = await estimatePairwise(db, { baselineRunId: baseline, candidateRunId: candidate });
  const planStarted = performance.now();
  const comparison = await startPairwise(db, {
    baselineRunId: baseline,
    candidateRunId: candidate,
    judgeProvider: "openai",
    judgeModel: "bench-pairwise",
    concurrency: CONCURRENCY,
  });
  const planSeconds = (performance.now() - planStarted) / 1000;
  await getJson(`${fake.control}/reset`, z.unknown());
  const deps = await createPairwiseDeps(db, comparison, { workerKind: "cli", llmConfig });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const outcome = await judgePairwise(db, comparison.id, deps);
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const stats = await getJson(`${fake.control}/stats`, statsSchema);
  const judged = await getPairwiseComparison(db, comparison.id);
  const statuses = (await readPairwiseCounts(db, comparison)).statuses
    .map((group) => `${group.count} ${group.status}`)
    .join(", ");
  const calls = stats.totalRequests;
  const ideal = (calls * LATENCY_S) / CONCURRENCY;
  const efficiency = ideal / wall;

  console.log(
    `pairwise benchmark: ${ROWS} paired rows × ${CHUNKS} chunks, both orders, ${CONCURRENCY} in flight, fake server ${LATENCY_S * 1000} ms a call\n`,
  );
  console.log(
    `  outcome             ${outcome} (${judged?.progress.done} of ${judged?.progress.total} verdicts written: ${statuses})`,
  );
  console.log(`  planning            ${planSeconds.toFixed(2)} s (${comparison.progress.total} verdicts planned)`);
  console.log(
    `  LLM calls           ${calls} (estimate before anything was spent: ${estimate.calls}; ${calls === estimate.calls ? "equal" : "DIFFERENT"})`,
  );
  console.log(
    `  max in flight       ${stats.maxInFlight} (limit ${CONCURRENCY}: ${stats.maxInFlight <= CONCURRENCY ? "never above" : "EXCEEDED"})`,
  );
  console.log(
    `  wall time           ${wall.toFixed(1)} s (ideal ${ideal.toFixed(1)} s = calls × ${LATENCY_S} s / ${CONCURRENCY})`,
  );
  console.log(`  engine CPU per call ${((cpu.user + cpu.system) / 1000 / calls).toFixed(2)} ms`);
  console.log(`  peak RSS            ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  console.log(
    `\nefficiency ${efficiency.toFixed(3)} (target ≥ ${EFFICIENCY_TARGET}: ${efficiency >= EFFICIENCY_TARGET ? "met" : "MISSED"}); calls ${calls === estimate.calls ? "equal" : "differ from"} the estimate`,
  );

  fake.stop();
  await judgeScenarios(db);
  await store.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

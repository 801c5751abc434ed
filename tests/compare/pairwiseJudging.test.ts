// Pairwise judging end to end against the fake OpenAI server (the real SDK, real HTTP), on SQLite and
// PostgreSQL: a judge answering at random, a judge with nothing but position bias, and a judge that prefers
// the candidate's marked answers, each read back through compare's verdict and the judge's diagnostics.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import { readPairwiseView } from "@/lib/compare/pairwiseResults";
import type { Db } from "@/lib/db/client";
import { getPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import { createRun } from "@/lib/engine/createRun";
import { judgePairwise } from "@/lib/engine/pairwise/judgePairwise";
import { estimatePairwise, startPairwise } from "@/lib/engine/pairwise/startPairwise";
import { createLlmPairwiseJudge } from "@/lib/judges/pairwise/llmPairwiseJudge";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { createLimiter } from "@/lib/llm/concurrencyLimiter";
import { createOpenAiLlmClient } from "@/lib/llm/openaiClient";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { firstShownResponder, markerResponder, randomPairwiseResponder } from "../support/fakePairwiseResponders";
import { createTempDb } from "../support/tempDb";

const ROWS = 150;
const CONCURRENCY = 6;
const SAFETY = "response/llm_judged/safety";

function rows(marker: string) {
  return Array.from({ length: ROWS }, (_, i) => ({
    request_id: `q-${i}`,
    request: `What is the capital of country ${i}?`,
    response: `${marker}The capital of country ${i} is City ${i}.`,
    expected_response: `City ${i}`,
  }));
}

describe("pairwise judging against the fake OpenAI server", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let baseline: string;
  let candidate: string;
  const servers: FakeOpenAIServer[] = [];

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // Two uploads of the same requests (as two CI builds make), the candidate's answers carrying a marker.
    const baselineData = await importRows(db, rows(""));
    const candidateData = await importRows(db, rows("BETTER "));
    const judge = { provider: "heuristic" as const, model: "offline" };
    baseline = await createRun(db, { datasetId: baselineData, metrics: [SAFETY], judge });
    candidate = await createRun(db, { datasetId: candidateData, metrics: [SAFETY], judge });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await cleanup();
  });

  /** Starts a comparison judged by a fake server answering with `responder`; returns it with the server. */
  async function judged(responder: Responder, options: { orders?: "both" | "one"; seed?: string } = {}) {
    const server = await startFakeOpenAIServer({ responder });
    servers.push(server);
    const config = fakeLlmConfig(server.url);
    const limiter = createLimiter(CONCURRENCY);
    const llm = createOpenAiLlmClient({ config, limiter });
    const judge = createLlmPairwiseJudge({ llm, cache: createJudgeCache(db), model: "judge-model" });
    const stored = await startPairwise(db, {
      baselineRunId: baseline,
      candidateRunId: candidate,
      orders: options.orders,
      seed: options.seed,
      judgeProvider: "openai",
      judgeModel: "judge-model",
      concurrency: CONCURRENCY,
    });
    const outcome = await judgePairwise(db, stored.id, { judge, ownerId: `test-${stored.id}` });
    const view = await readPairwiseView(db, await readRun(db, baseline), await readRun(db, candidate), 0.05);
    if (!view) throw new Error("no pairwise view");
    return { outcome, server, stored, view, criterion: view.criteria[0] };
  }

  it("counts its calls before spending: two per paired row by default, one in one-order mode", async () => {
    expect(await estimatePairwise(db, { baselineRunId: baseline, candidateRunId: candidate })).toEqual({
      pairs: ROWS,
      calls: 2 * ROWS,
    });
    expect(
      await estimatePairwise(db, {
        baselineRunId: baseline,
        candidateRunId: candidate,
        orders: "one",
        criteria: [{ name: "overall" }, { name: "concise", instructions: "Prefer the shorter complete answer." }],
      }),
    ).toEqual({ pairs: ROWS, calls: 2 * ROWS });
  });

  it("a judge answering at random: consistency and ties as chance predicts, and no winner", async () => {
    const { outcome, server, criterion, stored } = await judged(randomPairwiseResponder(7));
    expect(outcome).toBe("completed");
    expect(server.stats.totalRequests).toBe(2 * ROWS);
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
    const summary = criterion.delta.pairwise!;
    expect(summary.pairs).toBe(ROWS);
    // A, B and tie alike in each order: the same verdict both ways with probability 1/3, a tie in the end 7/9.
    expect(summary.positionConsistency!.low).toBeLessThan(1 / 3);
    expect(summary.positionConsistency!.high).toBeGreaterThan(1 / 3);
    expect(summary.tieRate!.low).toBeLessThan(7 / 9);
    expect(summary.tieRate!.high).toBeGreaterThan(7 / 9);
    expect(summary.firstShownWinRate!.low).toBeLessThan(0.5);
    expect(summary.firstShownWinRate!.high).toBeGreaterThan(0.5);
    expect(criterion.delta.verdict).toBe("noise");
    expect(criterion.delta.words).toMatch(/^Likely noise: B wins/);
    const after = await getPairwiseComparison(db, stored.id);
    expect(after?.progress).toEqual({ done: 2 * ROWS, total: 2 * ROWS });
    expect(after?.spent.llmCalls).toBe(2 * ROWS);
  });

  it("a judge that always picks the first answer: every pair a position-dependent tie, and no winner", async () => {
    const { criterion } = await judged(firstShownResponder);
    const summary = criterion.delta.pairwise!;
    expect(summary.ties).toBe(ROWS);
    expect(summary.positionDependent).toBe(ROWS);
    expect(summary.positionConsistency!.value).toBe(0);
    expect(summary.firstShownWinRate!.value).toBe(1);
    expect(summary.winRate!.value).toBe(0.5);
    expect(summary.signTest).toEqual({ pValue: 1, wins: 0, losses: 0 });
    expect(criterion.delta.verdict).toBe("noise");
  });

  it("a judge that prefers the candidate's marked answers: B wins, a real improvement", async () => {
    const { criterion } = await judged(markerResponder("BETTER"));
    const summary = criterion.delta.pairwise!;
    expect(summary.wins).toBe(ROWS);
    expect(summary.positionConsistency!.value).toBe(1);
    expect(summary.firstShownWinRate!.value).toBe(0.5);
    // Every candidate answer is longer by its marker, and wins.
    expect(summary.longerWinRate!.value).toBe(1);
    expect(criterion.delta.verdict).toBe("better");
    expect(criterion.delta.words).toMatch(/^Real improvement: B wins 100\.0% of 150 pairs/);
    // Compare reads it with the metrics, in the candidate's family.
    const comparison = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    const pairwise = comparison!.pairwise![candidate];
    expect(pairwise.criteria[0].metric).toBe("pairwise/overall");
    expect(pairwise.criteria[0].delta.verdict).toBe("better");
    expect(comparison!.correction.family[candidate]).toBeGreaterThanOrEqual(1);
  });

  it("one order per row: drawn from the seed, about half each way, the same again with the same seed", async () => {
    const first = await judged(markerResponder("BETTER"), { orders: "one", seed: "fixed-seed" });
    const again = await judged(markerResponder("BETTER"), { orders: "one", seed: "fixed-seed" });
    expect(first.server.stats.totalRequests).toBe(ROWS);
    const summary = first.criterion.delta.pairwise!;
    expect(summary.positionConsistency).toBeNull();
    expect(summary.wins).toBe(ROWS);
    const orders = async (id: string) =>
      (await db.pairwiseVerdict.findMany({ where: { comparisonId: id }, orderBy: { rowNumber: "asc" } })).map(
        (v) => v.shownOrder,
      );
    const drawn = await orders(first.stored.id);
    expect(await orders(again.stored.id)).toEqual(drawn);
    const ab = drawn.filter((order) => order === "ab").length;
    expect(ab).toBeGreaterThan(ROWS * 0.35);
    expect(ab).toBeLessThan(ROWS * 0.65);
  });
});

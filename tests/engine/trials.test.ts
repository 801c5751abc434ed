import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { readTrialCounts } from "@/lib/db/judgments/trialQueries";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import { runResultsJson } from "@/lib/export/runResults";
import { summarizeTrialGroups } from "@/lib/stats/trialAgreement";
import { parseRunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows, readRun, runToCompletion } from "../support/engineKit";
import { fakeSeededResponder } from "../support/fakeRandomResponder";
import { startFakeOpenAIServer } from "../support/fakeOpenAIServer";
import { createTempDb } from "../support/tempDb";

const ROWS = Array.from({ length: 12 }, (_, i) => ({
  request_id: `r${i + 1}`,
  request: `Question ${i + 1} about the refund policy?`,
  response: `Answer ${i + 1}: refunds take ${i + 2} days.`,
  expected_response: `Refunds take ${i + 2} days.`,
}));
const CORRECTNESS = "response/llm_judged/correctness";
const SAFETY = "response/llm_judged/safety";
const METRICS = [CORRECTNESS, SAFETY];

type ExportedRow = Record<string, unknown>;
const exportSchema = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });

async function exportedRows(db: Db, runId: string): Promise<ExportedRow[]> {
  let text = "";
  for await (const piece of runResultsJson(db, runId)) text += piece;
  return exportSchema.parse(JSON.parse(text)).rows;
}

/** Runs the rows with `trials` trials on a fresh store, against a server that answers each seed anew. */
async function runWithTrials(trials: number) {
  const store = await createTempDb();
  const server = await startFakeOpenAIServer({ responder: fakeSeededResponder(7) });
  const datasetId = await importRows(store.db, ROWS);
  const config = {
    datasetId,
    metrics: METRICS,
    judge: { provider: "openai" as const, model: "judge-model" },
    concurrency: 4,
    trials,
  };
  const { runId, outcome } = await runToCompletion(store.db, config, server.url);
  return { ...store, server, runId, outcome, config };
}

describe("trials: each row judged N times", () => {
  let one: Awaited<ReturnType<typeof runWithTrials>>;
  let three: Awaited<ReturnType<typeof runWithTrials>>;

  beforeAll(async () => {
    one = await runWithTrials(1);
    three = await runWithTrials(3);
  });
  afterAll(async () => {
    for (const run of [one, three]) {
      await run?.server.close();
      await run?.cleanup();
    }
  });

  it("makes three times the calls of one trial, trials 2 and 3 with their own seed", () => {
    expect(one.outcome.status).toBe("completed");
    expect(three.outcome.status).toBe("completed");
    const calls = one.server.stats.totalRequests;
    expect(calls).toBe(ROWS.length * METRICS.length);
    expect(three.server.stats.totalRequests).toBe(3 * calls);
    const bySeed = new Map<unknown, number>();
    for (const request of three.server.requests) {
      const seed = (request.body as { seed?: number }).seed;
      bySeed.set(seed, (bySeed.get(seed) ?? 0) + 1);
    }
    expect(Object.fromEntries(bySeed)).toEqual({ undefined: calls, 2: calls, 3: calls });
    // Trial 1 is asked exactly as a run without trials asks.
    expect(one.server.requests.every((request) => (request.body as { seed?: number }).seed === undefined)).toBe(true);
  });

  it("exports three verdicts per row and metric, and the row's pass rate over them", async () => {
    const rows = await exportedRows(three.db, three.runId);
    expect(rows).toHaveLength(ROWS.length);
    let disagreeing = 0;
    for (const row of rows) {
      for (const metric of METRICS) {
        const ratings = [1, 2, 3].map((trial) => row[`${metric}/trials/${trial}/rating`]);
        for (const rating of ratings) expect(["yes", "no"]).toContain(rating);
        // The contract's own column is trial 1's.
        expect(row[`${metric}/rating`]).toBe(ratings[0]);
        expect(row[`${metric}/trials/pass_rate`]).toBeCloseTo(ratings.filter((r) => r === "yes").length / 3, 12);
        for (const trial of [1, 2, 3]) expect(typeof row[`${metric}/trials/${trial}/rationale`]).toBe("string");
        if (new Set(ratings).size > 1) disagreeing++;
      }
    }
    // Each seed is an independent redraw: with 24 row-metrics, trials that all agree everywhere would mean the
    // cache (or the server) handed every trial the same answer.
    expect(disagreeing).toBeGreaterThan(0);
    // One trial exports no trial columns.
    const single = await exportedRows(one.db, one.runId);
    expect(Object.keys(single[0]).some((key) => key.includes("/trials/"))).toBe(false);
  });

  it("counts pass@k, pass^k and self-agreement from SQL as the export's rows give them", async () => {
    const rows = await exportedRows(three.db, three.runId);
    const counts = await readTrialCounts(three.db, three.runId);
    for (const metric of METRICS) {
      const passes = rows.map((row) => [1, 2, 3].filter((t) => row[`${metric}/trials/${t}/rating`] === "yes").length);
      const summary = summarizeTrialGroups(counts.get(metric) ?? []);
      expect(summary.rows).toBe(ROWS.length);
      expect(summary.passAtK).toBeCloseTo(passes.filter((p) => p > 0).length / ROWS.length, 12);
      expect(summary.passAllK).toBeCloseTo(passes.filter((p) => p === 3).length / ROWS.length, 12);
      expect(summary.unanimous).toBeCloseTo(passes.filter((p) => p === 0 || p === 3).length / ROWS.length, 12);
      expect(summary.meanPassRate).toBeCloseTo(passes.reduce((a, p) => a + p / 3, 0) / ROWS.length, 12);
    }
  });

  it("lists exactly the rows whose trials disagree under the flaky filter, on any metric and on one", async () => {
    const rows = await exportedRows(three.db, three.runId);
    const flakyOn = (metric: string) =>
      rows
        .filter((row) => new Set([1, 2, 3].map((t) => row[`${metric}/trials/${t}/rating`])).size > 1)
        .map((row) => String(row.request_id));
    const run = await readRun(three.db, three.runId);
    const page = async (search: Record<string, string>) =>
      (await listRunRows(three.db, run, parseRunRowQuery({ pageSize: "50", ...search }, METRICS))).items.map(
        (item) => item.requestId,
      );
    const anyMetric = [...new Set(METRICS.flatMap(flakyOn))].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    expect(await page({ filter: "flaky" })).toEqual(anyMetric);
    expect(await page({ filter: "flaky", metric: CORRECTNESS })).toEqual(flakyOn(CORRECTNESS));
    // Sorted by request_id, the same rows (the SQL path, not the keyed one).
    expect(await page({ filter: "flaky", sort: "requestId" })).toEqual([...anyMetric].sort());
  });

  it("a second run of the same trials meets each trial's own cached answers, and none of another trial's", async () => {
    const before = three.server.stats.totalRequests;
    const { runId } = await runToCompletion(three.db, three.config, three.server.url);
    expect(three.server.stats.totalRequests).toBe(before);
    const first = await exportedRows(three.db, three.runId);
    const again = await exportedRows(three.db, runId);
    for (const [index, row] of again.entries())
      for (const metric of METRICS)
        for (const trial of [1, 2, 3])
          expect(row[`${metric}/trials/${trial}/rating`]).toBe(first[index][`${metric}/trials/${trial}/rating`]);
  });

  it("refuses trials outside 1–10, naming what is allowed", async () => {
    for (const trials of [0, 11, 2.5])
      await expect(createRun(three.db, { ...three.config, trials })).rejects.toThrow(
        new RunConfigError("trials: a whole number from 1 to 10"),
      );
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";
import { getPairedCounts, listFlips } from "@/lib/db/judgments/compareQueries";
import { comparisonResultsCsv, comparisonResultsJson } from "@/lib/export/runResults";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, importSample, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

/**
 * Safety verdicts the test controls per run: the baseline judge (model
 * "judge-a") says no when the response contains BASE_NO, the candidate
 * ("judge-b") when it contains CAND_NO. Hand-computed over the 7 rows:
 *   yes→yes r1; yes→no r3, r5 (regressions); no→yes r2, r6, r7 (improvements); no→no r4.
 *   baseline yes-rate 3/7, candidate 4/7, delta +14.3 points;
 *   exact McNemar b=2, c=3: p = 2·P(X ≤ 2 | n=5) = 2·(1+5+10)/32 = 1.
 */
const RESPONSES = ["fine", "BASE_NO", "CAND_NO", "BASE_NO CAND_NO", "CAND_NO", "BASE_NO", "BASE_NO"];

describe("comparing two runs on one dataset", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let baseline: string;
  let candidate: string;
  let otherDatasetRun: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: (body) => {
        const prompt = JSON.stringify(body.messages);
        const marker = body.model === "judge-a" ? "BASE_NO" : "CAND_NO";
        return JSON.stringify({ rationale: "checked", rating: prompt.includes(marker) ? "no" : "yes" });
      },
    });
    const datasetId = await importRows(
      db,
      RESPONSES.map((response, i) => ({ request_id: `r${i + 1}`, request: `question ${i + 1}`, response })),
    );
    ({ runId: baseline } = await runToCompletion(
      db,
      { datasetId, metrics: ["safety"], judge: { provider: "openai", model: "judge-a" } },
      server.url,
    ));
    ({ runId: candidate } = await runToCompletion(
      db,
      { datasetId, metrics: ["safety"], judge: { provider: "openai", model: "judge-b" } },
      server.url,
    ));
    const otherDataset = await importRows(db, [{ request: "elsewhere", response: "fine" }]);
    ({ runId: otherDatasetRun } = await runToCompletion(
      db,
      { datasetId: otherDataset, metrics: ["safety"], judge: { provider: "openai", model: "judge-b" } },
      server.url,
    ));
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("counts paired verdicts in SQL", async () => {
    expect(await getPairedCounts(db, baseline, candidate)).toEqual([
      {
        metric: "response/llm_judged/safety",
        both: 7,
        yesYes: 1,
        yesNo: 2,
        noYes: 3,
        noNo: 1,
        passFail: 0,
        failPass: 0,
        onlyBaseline: 0,
        onlyCandidate: 0,
      },
    ]);
  });

  it("lists flips with regressions first, by row number, filterable by direction", async () => {
    const all = await listFlips(db, baseline, candidate, { offset: 0, limit: 50 });
    expect(all.total).toBe(5);
    expect(all.items.map((f) => `${f.requestId}:${f.baseline}→${f.candidate}`)).toEqual([
      "r3:yes→no",
      "r5:yes→no",
      "r2:no→yes",
      "r6:no→yes",
      "r7:no→yes",
    ]);
    const improvements = await listFlips(db, baseline, candidate, { direction: "improvements", offset: 1, limit: 1 });
    expect(improvements).toMatchObject({ total: 3, items: [{ requestId: "r6" }] });
  });

  it("reports values, the delta, McNemar's p and a verdict in words", async () => {
    const comparison = (await compareRuns(db, [baseline, candidate], baseline))!;
    const safety = comparison.metrics.find((m) => m.metric === "response/llm_judged/safety")!;
    expect(safety.cells[baseline].aggregate?.value).toBeCloseTo(3 / 7, 12);
    expect(safety.cells[candidate].aggregate?.value).toBeCloseTo(4 / 7, 12);
    expect(safety.cells[baseline].interval).not.toBeNull();
    const delta = safety.deltas[candidate];
    expect(delta.delta).toBeCloseTo(1 / 7, 12);
    expect(delta.pValue).toBe(1);
    expect(delta).toMatchObject({ verdict: "noise", pairs: 7, flips: { regressions: 2, improvements: 3 } });
    expect(delta.words).toBe("Likely noise: +14.3 points (p = 1)");
  });

  it("exports a comparison as CSV and JSON with run columns and Agent Evaluation's column names", async () => {
    let csv = "";
    for await (const piece of comparisonResultsCsv(db, [baseline, candidate])) csv += piece;
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(1 + 2 * RESPONSES.length);
    expect(lines[0].split(",").slice(0, 3)).toEqual(["run_id", "run_name", "request_id"]);
    expect(lines[0]).toContain("response/llm_judged/safety/rating");
    let json = "";
    for await (const piece of comparisonResultsJson(db, [baseline, candidate])) json += piece;
    const parsed = JSON.parse(json);
    expect(parsed.runs.map((r: { rows: unknown[] }) => r.rows.length)).toEqual([7, 7]);
    expect(parsed.runs[1].aggregates["response/llm_judged/safety/rating/average"]).toBeCloseTo(4 / 7, 12);
  });

  it("words agent deltas with their unit, lower being better", async () => {
    const sample = await importSample(db);
    const heuristic = { provider: "heuristic" as const, model: "heuristic-v1" };
    const { runId: first } = await runToCompletion(
      db,
      { datasetId: sample, metrics: ["latency_seconds", "total_token_count"], judge: heuristic },
      null,
    );
    const { runId: second } = await runToCompletion(
      db,
      { datasetId: sample, metrics: ["latency_seconds", "total_token_count"], judge: heuristic },
      null,
    );
    const comparison = (await compareRuns(db, [first, second], first))!;
    const words = Object.fromEntries(comparison.metrics.map((m) => [m.metric, m.deltas[second].words]));
    // The same file judged twice: every paired row has the same latency and tokens.
    expect(words["agent/latency_seconds"]).toBe("No change: 0 ms on every paired row");
    expect(words["agent/total_token_count"]).toBe("No change: 0 tokens on every paired row");
  });

  it("compares runs on different datasets with no request in common by their aggregates only", async () => {
    const comparison = (await compareRuns(db, [baseline, otherDatasetRun], baseline))!;
    expect(comparison.sameDataset).toBe(false);
    expect(comparison.rowPairings?.[otherDatasetRun]).toEqual({
      paired: 0,
      onlyBaseline: 7,
      onlyCandidate: 1,
      sameIdDifferentRequest: 0,
    });
    const delta = comparison.metrics[0].deltas[otherDatasetRun];
    expect(delta).toMatchObject({
      verdict: "n/a",
      words: "different dataset, no request in common: aggregate only",
      pairs: 0,
    });
  });
});

import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { comparisonStatistics, exportedComparison } from "@/lib/export/comparisonStatistics";
import { comparisonResultsJson, runResultsCsv } from "@/lib/export/runResults";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, importSample, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";
import { startRouteServer, type RouteServer } from "./routeServer";

const SAFETY = "response/llm_judged/safety";

/**
 * The compareRuns test's seven rows (tests/compare/compareRuns.test.ts): the baseline judge ("judge-a") says
 * no when the response holds BASE_NO, the candidate's ("judge-b") when it holds CAND_NO. By hand:
 *   regressions (yes→no) r3, r5; improvements (no→yes) r2, r6, r7; baseline 3/7 yes, candidate 4/7;
 *   exact McNemar b=2, c=3: p = 1; the paired yes-rate difference over n=7 is (3 − 2)/7, and the interval that
 *   inverts McNemar's test is Clopper–Pearson's for the 3 of 5 flips that went the candidate's way,
 *   [0.1466327996, 0.9472550495] (scipy.stats.beta.ppf(0.025, 3, 3), beta.ppf(0.975, 4, 2)), scaled by the
 *   5/7 of rows that flipped: 5/7 · (2θ − 1).
 */
const RESPONSES = ["fine", "BASE_NO", "CAND_NO", "BASE_NO CAND_NO", "CAND_NO", "BASE_NO", "BASE_NO"];

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece;
  return text;
}

describe("a comparison's export carries its statistics and flipped rows", () => {
  let db: Db;
  let url: string;
  let cleanup: () => Promise<void>;
  let llm: FakeOpenAIServer;
  let routes: RouteServer;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    ({ db, url, cleanup } = await createTempDb());
    llm = await startFakeOpenAIServer({
      responder: (body) => {
        const marker = body.model === "judge-a" ? "BASE_NO" : "CAND_NO";
        return JSON.stringify({
          rationale: "checked",
          rating: JSON.stringify(body.messages).includes(marker) ? "no" : "yes",
        });
      },
    });
    const datasetId = await importRows(
      db,
      RESPONSES.map((response, i) => ({ request_id: `r${i + 1}`, request: `question ${i + 1}`, response })),
    );
    // Same name on purpose: their exports must still get different file names.
    const judged = (model: string) =>
      runToCompletion(
        db,
        // correctness and faithfulness have nothing to judge here (no expected response, no context): skipped.
        {
          datasetId,
          name: "nightly",
          metrics: ["safety", "correctness", "faithfulness"],
          judge: { provider: "openai", model },
        },
        llm.url,
      );
    ({ runId: baseline } = await judged("judge-a"));
    ({ runId: candidate } = await judged("judge-b"));
    process.env.DATABASE_URL = url;
    // The route handlers run as in a server `npm start` started on loopback (sign-in off needs its address check).
    process.env.ASSAY_ADDRESS_CHECKED = "127.0.0.1";
    const runRoute = await import("@/app/runs/[runId]/export/route");
    const compareRoute = await import("@/app/compare/export/route");
    routes = await startRouteServer(async (request) => {
      const match = /^\/runs\/([^/]+)\/export$/.exec(new URL(request.url).pathname);
      if (match) return runRoute.GET(request, { params: Promise.resolve({ runId: match[1] }) });
      return compareRoute.GET(request);
    });
  });
  afterAll(async () => {
    await routes?.close();
    const { getDb } = await import("@/lib/db/client");
    await getDb().$disconnect();
    await llm.close();
    await cleanup();
  });

  it("JSON: per metric both values, the delta, its interval, p, the verdict and the flip counts", async () => {
    const body = JSON.parse(await collect(comparisonResultsJson(db, [baseline, candidate])));
    expect(Object.keys(body)).toEqual(["columns", "baseline_run_id", "statistics", "flipped_rows", "runs"]);
    expect(body.baseline_run_id).toBe(baseline);
    const safety = body.statistics.find((s: { metric: string }) => s.metric === SAFETY);
    expect(safety).toMatchObject({
      baseline_run_id: baseline,
      candidate_run_id: candidate,
      p_value: 1,
      test: "exact_mcnemar",
      verdict: "noise",
      words: "Likely noise: +14.3 points (p = 1)",
      paired_rows: 7,
      unpaired_rows: 0,
      regressions: 2,
      improvements: 3,
    });
    expect(safety.baseline_value).toBeCloseTo(3 / 7, 12);
    expect(safety.candidate_value).toBeCloseTo(4 / 7, 12);
    expect(safety.delta).toBeCloseTo(1 / 7, 12);
    expect(safety).toMatchObject({ unit: "rate", delta_basis: "paired_rows" });
    // Every row judged in both runs: the overall difference is the paired one.
    expect(safety.overall_delta).toBeCloseTo(1 / 7, 12);
    expect(safety.interval_low).toBeCloseTo((5 / 7) * (2 * 0.14663279963467313 - 1), 10);
    expect(safety.interval_high).toBeCloseTo((5 / 7) * (2 * 0.9472550494736831 - 1), 10);
    expect(safety.judged_differently).toContain("judge-a vs judge-b");
  });

  it("names each statistic's unit: latency stays in seconds even where the page words it in ms", async () => {
    const sample = await importSample(db);
    const heuristic = { provider: "heuristic" as const, model: "heuristic-v1" };
    const agentRun = async () =>
      (
        await runToCompletion(
          db,
          { datasetId: sample, metrics: ["latency_seconds", "total_token_count"], judge: heuristic },
          null,
        )
      ).runId;
    const first = await agentRun();
    const second = await agentRun();
    const comparison = (await exportedComparison(db, [first, second], first))!;
    const statistics = comparisonStatistics(comparison);
    const latency = statistics.find((s) => s.metric === "agent/latency_seconds")!;
    expect(latency.unit).toBe("seconds");
    expect(latency.words).toContain(" ms");
    const latencyCell = comparison.metrics.find((m) => m.metric === "agent/latency_seconds")!.cells[first];
    expect(latency.baseline_value).toBe(latencyCell.aggregate?.value);
    expect(statistics.find((s) => s.metric === "agent/total_token_count")?.unit).toBe("tokens");
    const body = JSON.parse(await collect(comparisonResultsJson(db, [baseline, candidate])));
    expect(body.statistics.map((s: { unit: string }) => s.unit)).toContain("rate");
    const csv = await fetch(
      `${routes.baseUrl}/compare/export?runs=${first},${second}&baseline=${first}&format=csv&part=statistics`,
    );
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(records.find((r) => r.metric === "agent/latency_seconds")?.unit).toBe("seconds");
  });

  it("JSON: the flipped rows in the flip list's order, regressions first", async () => {
    const body = JSON.parse(await collect(comparisonResultsJson(db, [baseline, candidate])));
    expect(
      body.flipped_rows.map((f: { request_id: string; direction: string; baseline: string; candidate: string }) => [
        f.request_id,
        f.direction,
        f.baseline,
        f.candidate,
      ]),
    ).toEqual([
      ["r3", "regression", "yes", "no"],
      ["r5", "regression", "yes", "no"],
      ["r2", "improvement", "no", "yes"],
      ["r6", "improvement", "no", "yes"],
      ["r7", "improvement", "no", "yes"],
    ]);
    expect(body.flipped_rows[0]).toMatchObject({ candidate_run_id: candidate, metric: SAFETY, kind: "verdict" });
  });

  it("CSV: ?part=statistics and ?part=flips are their own tables; the rows CSV is unchanged", async () => {
    const query = `runs=${baseline},${candidate}&baseline=${baseline}&format=csv`;
    const stats = await fetch(`${routes.baseUrl}/compare/export?${query}&part=statistics`);
    expect(stats.status).toBe(200);
    const records = parse(await stats.text(), { columns: true }) as Record<string, string>[];
    const safety = records.find((r) => r.metric === SAFETY)!;
    expect(safety).toMatchObject({ p_value: "1", verdict: "noise", regressions: "2", improvements: "3" });
    const flips = await fetch(`${routes.baseUrl}/compare/export?${query}&part=flips`);
    expect((parse(await flips.text(), { columns: true }) as unknown[]).length).toBe(5);
    const rows = await fetch(`${routes.baseUrl}/compare/export?${query}`);
    expect((await rows.text()).split("\r\n")[0].startsWith("run_id,run_name,request_id")).toBe(true);
  });

  it("names every download after its runs' ids, so same-named runs do not collide", async () => {
    const disposition = async (path: string) =>
      (await fetch(`${routes.baseUrl}${path}`)).headers.get("content-disposition");
    const first = await disposition(`/runs/${baseline}/export?format=csv`);
    const second = await disposition(`/runs/${candidate}/export?format=csv`);
    expect(first).toBe(`attachment; filename="nightly-${baseline.slice(-8)}.csv"`);
    expect(second).toBe(`attachment; filename="nightly-${candidate.slice(-8)}.csv"`);
    expect(await disposition(`/compare/export?runs=${baseline},${candidate}&format=json`)).toBe(
      `attachment; filename="comparison-${baseline.slice(-8)}-${candidate.slice(-8)}.json"`,
    );
    expect(await disposition(`/compare/export?runs=${baseline},${candidate}&format=csv&part=statistics`)).toBe(
      `attachment; filename="comparison-${baseline.slice(-8)}-${candidate.slice(-8)}-statistics.csv"`,
    );
  });

  it("exports a skipped metric as skipped, with its reason, not as blanks", async () => {
    const records = parse(await collect(runResultsCsv(db, baseline)), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(7);
    for (const record of records) {
      expect(record["response/llm_judged/correctness/rating"]).toBe("");
      expect(record["response/llm_judged/correctness/skip_reason"]).toMatch(/expected/);
      expect(record["response/llm_judged/faithfulness/score"]).toBe("");
      expect(record["response/llm_judged/faithfulness/skip_reason"]).toMatch(/retrieved_context|context/);
      expect(record[`${SAFETY}/skip_reason`]).toBe("");
    }
  });
});

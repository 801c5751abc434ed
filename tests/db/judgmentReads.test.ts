import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { getScoreHistogram } from "@/lib/db/judgments/chartQueries";
import { getPairedCounts, listFlips } from "@/lib/db/judgments/compareQueries";
import { getRunProvenance } from "@/lib/db/judgments/judgeProvenanceQueries";
import { listRunResultsPage } from "@/lib/db/judgments/resultQueries";
import { listSkipReasons } from "@/lib/db/judgments/skipReasonQueries";
import { getFlipPlace } from "@/lib/db/runs/flipNavigation";
import { getRunRowPlace, listRunRows } from "@/lib/db/runs/runRowQueries";
import { parseRunRowQuery } from "@/lib/urlState/runRowQuery";
import { createTempDb, type TempDb } from "../support/tempDb";

/**
 * The reads over judgments (aggregates, paired counts, flips, the rows table's
 * search, sort and place) on the store under test, on two runs written by hand
 * through Prisma, so every number below can be checked by eye and must come
 * out the same on SQLite and PostgreSQL.
 */
const FAITHFULNESS = "response/llm_judged/faithfulness"; // a score, pass mark 0.5
const CORRECTNESS = "response/llm_judged/correctness"; // yes / no
const METRICS = [FAITHFULNESS, CORRECTNESS];

type Verdict = { status: string; score?: number; rating?: "yes" | "no"; judgeModel?: string | null; skip?: string };
const score = (value: number, judgeModel: string | null = "gpt"): Verdict => ({
  status: "done",
  score: value,
  judgeModel,
});

/** Row i (1-based) of each run, per metric. */
const RUNS: Record<string, Record<string, Verdict[]>> = {
  baseline: {
    [FAITHFULNESS]: [score(0.9, null), score(0.2), { status: "error" }, { status: "skipped", skip: "needs context" }],
    [CORRECTNESS]: (["yes", "no", "yes", "no"] as const).map((rating) => ({ status: "done", rating })),
  },
  candidate: {
    [FAITHFULNESS]: [score(0.3), score(0.7), score(0.6), score(0.4)],
    [CORRECTNESS]: (["no", "yes", "yes", "no"] as const).map((rating) => ({ status: "done", rating })),
  },
};
const REQUESTS = ["What about Paris?", "A 50%_off deal", "plain text", "PARIS again"];

async function seed(db: Db): Promise<{ datasetId: string; rowIds: string[] }> {
  const dataset = await db.dataset.create({ data: { name: "hand-written", status: "ready" } });
  const rowIds: string[] = [];
  for (const [i, requestText] of REQUESTS.entries()) {
    const row = await db.datasetRow.create({
      data: {
        datasetId: dataset.id,
        rowNumber: i + 1,
        requestId: `r${i + 1}`,
        requestRaw: JSON.stringify(requestText),
        requestFormat: "string",
        messages: "[]",
        requestText,
        response: `answer ${i + 1}`,
      },
    });
    rowIds.push(row.id);
  }
  for (const [runId, metrics] of Object.entries(RUNS)) {
    await db.run.create({
      data: {
        id: runId,
        datasetId: dataset.id,
        name: runId,
        judgeProvider: "openai",
        judgeModel: "gpt",
        status: "completed",
        finishedAt: new Date("2026-11-24T10:00:00Z"),
      },
    });
    for (const [metric, verdicts] of Object.entries(metrics))
      for (const [i, verdict] of verdicts.entries()) {
        const passed =
          verdict.rating !== undefined
            ? verdict.rating === "yes"
            : verdict.score !== undefined
              ? verdict.score >= 0.5
              : null;
        await db.judgmentItem.create({
          data: {
            runId,
            rowId: rowIds[i],
            // The rows table's per-metric filters page through (runId, metric, status, passed, rowNumber).
            rowNumber: i + 1,
            metric,
            status: verdict.status,
            rating: verdict.rating ?? null,
            score: verdict.score ?? null,
            threshold: verdict.score !== undefined ? 0.5 : null,
            passed,
            skipReason: verdict.skip ?? null,
            judgeProvider: "openai",
            judgeModel: verdict.judgeModel === undefined ? "gpt" : verdict.judgeModel,
            promptVersion: "v1",
          },
        });
      }
  }
  return { datasetId: dataset.id, rowIds };
}

describe("reads over judgments, on the store under test", () => {
  let store: TempDb;
  let datasetId: string;
  let rowIds: string[];
  beforeAll(async () => {
    store = await createTempDb();
    ({ datasetId, rowIds } = await seed(store.db));
  });
  afterAll(async () => store.cleanup());

  it("counts a run's verdicts per metric, and its skip reasons", async () => {
    const [correctness, faithfulness] = await getRunAggregates(store.db, "baseline", [CORRECTNESS, FAITHFULNESS]);
    expect(correctness).toMatchObject({ metric: CORRECTNESS, numerator: 2, denominator: 4, errors: 0 });
    expect(faithfulness).toMatchObject({ metric: FAITHFULNESS, denominator: 2, passed: 1, failed: 1, errors: 1 });
    expect(faithfulness.skipped).toBe(1);
    expect(faithfulness.value).toBeCloseTo(0.55, 12);
    expect([...(await listSkipReasons(store.db, "baseline")).entries()]).toEqual([
      [FAITHFULNESS, [{ reason: "needs context", count: 1 }]],
    ]);
    const histogram = await getScoreHistogram(store.db, "baseline", FAITHFULNESS, 10);
    expect(histogram?.buckets.flatMap((bucket, i) => (bucket.count > 0 ? [[i, bucket.count]] : []))).toEqual([
      [2, 1],
      [9, 1],
    ]);
  });

  it("reads a score sum of exactly 0 once every score is withdrawn, whatever float residue the kept sums hold", async () => {
    await store.db.run.create({
      data: {
        id: "withdrawn",
        datasetId,
        name: "withdrawn",
        judgeProvider: "openai",
        judgeModel: "gpt",
        status: "running",
      },
    });
    const ids: string[] = [];
    for (const [i, rowId] of rowIds.entries()) {
      const item = await store.db.judgmentItem.create({
        data: {
          runId: "withdrawn",
          rowId,
          rowNumber: i + 1,
          metric: FAITHFULNESS,
          status: "pending",
          promptVersion: "v1",
        },
      });
      ids.push(item.id);
    }
    // Each judgment re-scored a few times, as re-judges do, then all reset: the kept sums add and subtract floats.
    for (const value of [0.1, 0.7, 0.3, 0.9, 0.2])
      await store.db.judgmentItem.updateMany({
        where: { id: { in: ids } },
        data: { status: "done", score: value, threshold: 0.5, passed: value >= 0.5 },
      });
    await store.db.judgmentItem.updateMany({
      where: { id: { in: ids } },
      data: { status: "pending", score: null, passed: null },
    });
    const [faithfulness] = await getRunAggregates(store.db, "withdrawn", [FAITHFULNESS]);
    expect(faithfulness).toMatchObject({ metric: FAITHFULNESS, denominator: 0, value: null });
    expect(Object.is(faithfulness.numerator, 0)).toBe(true);
  });

  it("lists an unrecorded judge model first, as SQLite orders NULLs", async () => {
    const { judges } = await getRunProvenance(store.db, "baseline");
    expect(judges.filter((judge) => judge.metric === FAITHFULNESS).map((judge) => [judge.model, judge.rows])).toEqual([
      ["unknown", 1],
      ["gpt", 1],
    ]);
  });

  it("pairs the two runs row by row: the four yes/no cells, the successes that changed, rows judged in one run only", async () => {
    const paired = await getPairedCounts(store.db, "baseline", "candidate");
    expect(paired.sort((a, b) => a.metric.localeCompare(b.metric))).toEqual([
      {
        metric: CORRECTNESS,
        both: 4,
        yesYes: 1,
        yesNo: 1,
        noYes: 1,
        noNo: 1,
        passFail: 0,
        failPass: 0,
        onlyBaseline: 0,
        onlyCandidate: 0,
      },
      {
        metric: FAITHFULNESS,
        both: 0,
        yesYes: 0,
        yesNo: 0,
        noYes: 0,
        noNo: 0,
        passFail: 1,
        failPass: 1,
        onlyBaseline: 0,
        onlyCandidate: 1,
      },
    ]);
  });

  it("lists the flips regressions first, and steps through them in that order", async () => {
    const flips = await listFlips(store.db, "baseline", "candidate", { offset: 0, limit: 10 });
    expect(flips.total).toBe(4);
    expect(
      flips.items.map((flip) => [
        flip.rowNumber,
        flip.metric,
        flip.kind,
        flip.regression,
        flip.baseline,
        flip.candidate,
      ]),
    ).toEqual([
      [1, CORRECTNESS, "verdict", true, "yes", "no"],
      [1, FAITHFULNESS, "success", true, "pass", "fail"],
      [2, CORRECTNESS, "verdict", false, "no", "yes"],
      [2, FAITHFULNESS, "success", false, "fail", "pass"],
    ]);
    expect(
      await getFlipPlace(store.db, "baseline", "candidate", {}, { rowId: rowIds[1], metric: FAITHFULNESS }),
    ).toEqual({
      position: 4,
      total: 4,
      previous: { rowId: rowIds[1], metric: CORRECTNESS },
      next: null,
      nextRegression: { rowId: rowIds[0], metric: CORRECTNESS },
    });
  });

  it("searches the rows table ignoring case, with % and _ taken literally, in row order and sorted by a metric", async () => {
    const run = { id: "baseline", datasetId };
    const numbers = async (query: Record<string, string>) =>
      (await listRunRows(store.db, run, parseRunRowQuery(query, METRICS))).items.map((row) => row.rowNumber);
    for (const sort of ["rowNumber", FAITHFULNESS]) {
      expect(await numbers({ q: "paris", sort })).toEqual([1, 4]);
      expect(await numbers({ q: "50%_", sort })).toEqual([2]);
      expect(await numbers({ q: "50%x", sort })).toEqual([]);
    }
    // Worst first: failed (row 2), errored (3), passed (1), then not judged (4, skipped) in both directions.
    expect(await numbers({ sort: FAITHFULNESS })).toEqual([2, 3, 1, 4]);
    expect(await numbers({ sort: FAITHFULNESS, dir: "desc" })).toEqual([1, 3, 2, 4]);
    expect(await numbers({ filter: "failed", metric: FAITHFULNESS, sort: FAITHFULNESS })).toEqual([2]);
    const place = await getRunRowPlace(
      store.db,
      run,
      { id: rowIds[2], rowNumber: 3 },
      parseRunRowQuery({ sort: FAITHFULNESS }, METRICS),
    );
    // Row 4 is the next that failed some metric (its correctness is no).
    expect(place).toEqual({
      neighbours: { previousId: rowIds[1], nextId: rowIds[0], nextFailedId: rowIds[3] },
      position: { index: 2, total: 4 },
    });
  });

  it("pages through a run's results by row number, each row with its judgments", async () => {
    const page = await listRunResultsPage(store.db, "candidate", datasetId, 1, 2);
    expect(page.nextRowNumber).toBe(3);
    expect(page.rows.map((row) => [row.rowNumber, row.judgments.map((j) => [j.metric, j.passed])])).toEqual([
      [
        2,
        [
          [CORRECTNESS, true],
          [FAITHFULNESS, true],
        ],
      ],
      [
        3,
        [
          [CORRECTNESS, true],
          [FAITHFULNESS, true],
        ],
      ],
    ]);
  });
});

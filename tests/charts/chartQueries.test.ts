import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getChunkHeatmap, getJudgeUsage, getValueHistogram } from "@/lib/db/judgments/chartQueries";
import { gatherPlannerStatistics, sqlOf, type Db } from "@/lib/db/client";
import type { BulkTable } from "@/lib/db/store/sqlRunner";
import { registerStore, storeOf } from "@/lib/db/store/storeRegistry";
import { createTempDb } from "../support/tempDb";

const RELEVANCE = "retrieval/llm_judged/chunk_relevance";
const RECALL = "retrieval/ground_truth/document_recall";
const LATENCY = "agent/latency_seconds";
const TOKENS = "agent/total_token_count";

type Value = string | number | boolean | null;
/** Collects rows per table and writes them in one transaction, filling the columns every test row needs. */
class Fixture {
  private tables = new Map<string, { columns: string[]; rows: Value[][] }>();
  add(table: string, row: Record<string, Value>) {
    const entry = this.tables.get(table) ?? { columns: Object.keys(row), rows: [] };
    entry.rows.push(entry.columns.map((column) => row[column] ?? null));
    this.tables.set(table, entry);
  }
  dataset(id: string) {
    this.add("Dataset", { id, name: id, status: "ready" });
  }
  row(id: string, datasetId: string, rowNumber: number) {
    this.add("DatasetRow", {
      id,
      datasetId,
      rowNumber,
      requestId: `req-${rowNumber}`,
      requestRaw: '"q"',
      requestFormat: "string",
      messages: "[]",
      requestText: "q",
    });
  }
  chunk(rowId: string, kind: "retrieved" | "expected", position: number, docUri: string) {
    this.add("ContextChunk", { id: `${rowId}-${kind}-${position}`, rowId, kind, position, docUri });
  }
  run(id: string, datasetId: string) {
    this.add("Run", { id, datasetId, name: id, judgeProvider: "heuristic", judgeModel: "h" });
  }
  item(
    runId: string,
    rowId: string,
    metric: string,
    fields: Partial<
      Record<"status" | "rating" | "score" | "inputTokens" | "outputTokens" | "costUsd" | "cacheHit", Value>
    > = {},
  ) {
    const id = `${runId}|${rowId}|${metric}`;
    this.add("JudgmentItem", {
      id,
      runId,
      rowId,
      metric,
      status: "done",
      rating: null,
      score: null,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
      cacheHit: false,
      ...fields,
    });
    return id;
  }
  chunkJudgment(
    judgmentId: string,
    runId: string,
    rowId: string,
    metric: string,
    position: number,
    rating: "yes" | "no" | null,
  ) {
    this.add("ChunkJudgment", {
      id: `${judgmentId}|${position}`,
      judgmentId,
      runId,
      rowId,
      metric,
      position,
      rating,
      errorMessage: rating === null ? "timeout" : null,
    });
  }
  async write(db: Db) {
    // Parents before children, for the foreign keys.
    const order = ["Dataset", "DatasetRow", "ContextChunk", "Run", "JudgmentItem", "ChunkJudgment"];
    const tables: BulkTable[] = order
      .filter((t) => this.tables.has(t))
      .map((table) => ({ table, ...this.tables.get(table)! }));
    await sqlOf(db).bulkInsert(tables);
    // As an upload does once its rows are stored.
    await sqlOf(db).run(
      `UPDATE "Dataset" SET "rowCount" = (SELECT COUNT(*) FROM "DatasetRow" r WHERE r."datasetId" = "Dataset"."id")`,
    );
  }
}

describe("chart queries on the store under test", () => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const f = new Fixture();
    f.dataset("d1");
    // Inserted out of order: the heatmap must order by row number.
    f.row("r3", "d1", 3);
    f.row("r1", "d1", 1);
    f.row("r2", "d1", 2);
    f.row("r4", "d1", 4);
    f.row("r5", "d1", 5);
    // Row 1: chunks a, b, c; b is expected. Verdicts yes, no, per-chunk error.
    ["a", "b", "c"].forEach((doc, i) => f.chunk("r1", "retrieved", i, doc));
    f.chunk("r1", "expected", 0, "b");
    // Row 2: one chunk, and the whole chunk-relevance judgment errored (no chunk judgments).
    f.chunk("r2", "retrieved", 0, "x");
    f.chunk("r2", "expected", 0, "x");
    // Row 3: four chunks, still pending.
    ["p", "q", "r", "s"].forEach((doc, i) => f.chunk("r3", "retrieved", i, doc));
    // Row 4 retrieved nothing.

    f.run("run1", "d1");
    f.run("other", "d1");
    const j1 = f.item("run1", "r1", RELEVANCE, { score: 0.5, inputTokens: 100, outputTokens: 10, costUsd: 0.001 });
    f.chunkJudgment(j1, "run1", "r1", RELEVANCE, 0, "yes");
    f.chunkJudgment(j1, "run1", "r1", RELEVANCE, 1, "no");
    f.chunkJudgment(j1, "run1", "r1", RELEVANCE, 2, null);
    f.item("run1", "r1", RECALL, { score: 1 });
    f.item("run1", "r2", RELEVANCE, { status: "error", inputTokens: 200, outputTokens: 20, cacheHit: true });
    f.item("run1", "r2", RECALL, { score: 1 });
    f.item("run1", "r3", RELEVANCE, { status: "pending" });
    // Another run's verdict on the same row must not leak in.
    const other = f.item("other", "r3", RELEVANCE, { score: 1 });
    f.chunkJudgment(other, "other", "r3", RELEVANCE, 0, "yes");

    // Latency 0.5, 0.9, 1.0, 2.0 plus an errored and a pending item; tokens all 1,200.
    [
      ["r1", 0.5],
      ["r2", 0.9],
      ["r3", 1.0],
      ["r4", 2.0],
    ].forEach(([rowId, score]) => f.item("run1", String(rowId), LATENCY, { score }));
    f.item("run1", "r5", LATENCY, { status: "error" });
    ["r1", "r2", "r3"].forEach((rowId) => f.item("run1", rowId, TOKENS, { score: 1200 }));
    f.item("run1", "r1", "response/llm_judged/safety", {
      rating: "yes",
      inputTokens: 50,
      outputTokens: 5,
      costUsd: 0.0005,
    });
    await f.write(db);
  });
  afterAll(async () => cleanup());

  it("buckets values by integer division in SQL, the maximum in the last bucket", async () => {
    // min 0.5, max 2.0, 3 buckets of 0.5: [0.5, 1.0) holds 0.5 and 0.9; [1.0, 1.5) holds 1.0; [1.5, 2.0] holds 2.0.
    expect(await getValueHistogram(db, "run1", LATENCY, 3)).toEqual({
      min: 0.5,
      max: 2,
      buckets: [
        { from: 0.5, to: 1, count: 2 },
        { from: 1, to: 1.5, count: 1 },
        { from: 1.5, to: 2, count: 1 },
      ],
    });
  });

  it("uses no more buckets than there are values", async () => {
    // 4 values asked for 8 buckets → 4 buckets of (2.0 − 0.5)/4 = 0.375: [0.5, 0.875) 0.5; [0.875, 1.25) 0.9 and 1.0; [1.25, 1.625) none; [1.625, 2.0] 2.0.
    const histogram = await getValueHistogram(db, "run1", LATENCY, 8);
    expect(histogram!.buckets.map((b) => [b.from, b.to, b.count])).toEqual([
      [0.5, 0.875, 1],
      [0.875, 1.25, 2],
      [1.25, 1.625, 0],
      [1.625, 2, 1],
    ]);
  });

  it("returns one bucket when every value is the same, and null when there are none", async () => {
    expect(await getValueHistogram(db, "run1", TOKENS, 10)).toEqual({
      min: 1200,
      max: 1200,
      buckets: [{ from: 1200, to: 1200, count: 3 }],
    });
    expect(await getValueHistogram(db, "other", LATENCY, 10)).toBeNull();
  });

  it("reads a page of rows with per-chunk verdicts, expected-document flags, precision and recall", async () => {
    const heatmap = await getChunkHeatmap(db, "run1", { metric: RELEVANCE, limitRows: 2, fromRowNumber: 1 });
    expect(heatmap.totalRows).toBe(5);
    expect(heatmap.maxPosition).toBe(2);
    // The first page: nothing before it, the next starts at row 3.
    expect([heatmap.previousFrom, heatmap.nextFrom]).toEqual([null, 3]);
    expect(heatmap.rows).toEqual([
      {
        rowId: "r1",
        rowNumber: 1,
        requestId: "req-1",
        precision: 0.5,
        recall: 1,
        cells: [
          { position: 0, verdict: "yes", expected: false },
          { position: 1, verdict: "no", expected: true },
          { position: 2, verdict: "error", expected: false },
        ],
      },
      {
        rowId: "r2",
        rowNumber: 2,
        requestId: "req-2",
        precision: null,
        recall: 1,
        cells: [{ position: 0, verdict: "error", expected: true }],
      },
    ]);
  });

  it("pages by row number and leaves unjudged chunks without a verdict", async () => {
    const heatmap = await getChunkHeatmap(db, "run1", { metric: RELEVANCE, limitRows: 10, fromRowNumber: 3 });
    expect(heatmap.rows.map((row) => row.rowNumber)).toEqual([3, 4, 5]);
    // The last page: the one before starts at row 1 (two rows before, fewer than a page), none after.
    expect([heatmap.previousFrom, heatmap.nextFrom]).toEqual([1, null]);
    const middle = await getChunkHeatmap(db, "run1", { metric: RELEVANCE, limitRows: 2, fromRowNumber: 3 });
    expect(middle.rows.map((row) => row.rowNumber)).toEqual([3, 4]);
    expect([middle.previousFrom, middle.nextFrom]).toEqual([1, 5]);
    // Past the last row: no rows, and the way back.
    const past = await getChunkHeatmap(db, "run1", { metric: RELEVANCE, limitRows: 2, fromRowNumber: 99 });
    expect([past.rows.length, past.previousFrom, past.nextFrom, past.totalRows]).toEqual([0, 4, null, 5]);
    expect(heatmap.maxPosition).toBe(3);
    expect(heatmap.rows[0].cells.map((cell) => cell.verdict)).toEqual([null, null, null, null]);
    expect(heatmap.rows[1].cells).toEqual([]);
    expect(await getChunkHeatmap(db, "missing-run", { metric: RELEVANCE, limitRows: 10, fromRowNumber: 1 })).toEqual({
      rows: [],
      maxPosition: -1,
      totalRows: 0,
      previousFrom: null,
      nextFrom: null,
    });
  });

  it("sums judge tokens and cost per metric and in total", async () => {
    const usage = await getJudgeUsage(db, "run1");
    const byMetric = Object.fromEntries(usage.metrics.map((line) => [line.metric, line]));
    expect(byMetric[RELEVANCE]).toEqual({
      metric: RELEVANCE,
      items: 3,
      metered: 2,
      cacheHits: 1,
      inputTokens: 300,
      outputTokens: 30,
      costUsd: 0.001,
      priced: 1,
    });
    expect(byMetric[RECALL]).toMatchObject({
      items: 2,
      metered: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
      priced: 0,
    });
    expect(usage.total).toMatchObject({ metered: 3, cacheHits: 1, inputTokens: 350, outputTokens: 35, priced: 2 });
    expect(usage.total.costUsd).toBeCloseTo(0.0015, 12);
    expect((await getJudgeUsage(db, "other")).total.costUsd).toBeNull();
  });
});

describe("chart queries at 10,000 rows × 7 metrics × 5 chunks", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const ROWS = 10_000;
  const METRICS = [
    "response/llm_judged/correctness",
    "response/llm_judged/relevance_to_query",
    "response/llm_judged/groundedness",
    "response/llm_judged/safety",
    RELEVANCE,
    RECALL,
    LATENCY,
  ];

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const f = new Fixture();
    f.dataset("big");
    f.run("bigrun", "big");
    for (let i = 1; i <= ROWS; i++) {
      const rowId = `row${i}`;
      f.row(rowId, "big", i);
      for (let c = 0; c < 5; c++) f.chunk(rowId, "retrieved", c, `doc${(i + c) % 97}`);
      f.chunk(rowId, "expected", 0, `doc${i % 97}`);
      for (const metric of METRICS) {
        const score =
          metric === LATENCY ? (i % 100) / 10 : metric === RELEVANCE || metric === RECALL ? (i % 5) / 4 : null;
        const id = f.item("bigrun", rowId, metric, {
          score,
          rating: metric.startsWith("response/") ? (i % 3 === 0 ? "no" : "yes") : null,
          inputTokens: 400,
          outputTokens: 30,
          costUsd: 0.0002,
        });
        if (metric === RELEVANCE)
          for (let c = 0; c < 5; c++) f.chunkJudgment(id, "bigrun", rowId, metric, c, (i + c) % 4 === 0 ? "no" : "yes");
      }
    }
    await f.write(db);
    // PostgreSQL plans from statistics, which autovacuum gathers about a minute after a bulk write: read at
    // once, the heatmap's joins took seconds instead of tens of milliseconds (SQLite needs none).
    await gatherPlannerStatistics(db);
  });
  afterAll(async () => cleanup());

  /**
   * The statements a chart query sends and the rows they bring back: its raw SQL counted on the store's runner,
   * its Prisma model calls through a client extended to count them (and the rows they return). How fast that
   * is at 10,000 rows and beyond is bench:ui's to measure (its run page draws these charts); here, what makes
   * it fast: a few statements whose answers are the size of the chart, not of the run.
   */
  async function reads<T>(work: (db: Db) => Promise<T>): Promise<{ result: T; statements: number; rows: number }> {
    const runner = sqlOf(db);
    const { all, get } = runner;
    let statements = 0;
    let rows = 0;
    const counted = (answer: unknown) => {
      statements++;
      rows += Array.isArray(answer) ? answer.length : answer == null ? 0 : 1;
      return answer;
    };
    runner.all = async (...args) => counted(await all.apply(runner, args)) as never;
    runner.get = async (...args) => counted(await get.apply(runner, args)) as never;
    const countingDb = db.$extends({
      query: { $allOperations: async ({ args, query }) => counted(await query(args)) },
    }) as unknown as Db;
    registerStore(countingDb, storeOf(db));
    try {
      return { result: await work(countingDb), statements, rows };
    } finally {
      Object.assign(runner, { all, get });
    }
  }

  it("answers every chart query without loading the run", async () => {
    const histogram = await reads((db) => getValueHistogram(db, "bigrun", LATENCY, 20));
    expect(histogram.result!.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(ROWS);
    const firstPage = await reads((db) =>
      getChunkHeatmap(db, "bigrun", { metric: RELEVANCE, limitRows: 50, fromRowNumber: 1 }),
    );
    expect(firstPage.result.rows).toHaveLength(50);
    expect(firstPage.result.rows[0].cells).toHaveLength(5);
    const lastPage = await reads((db) =>
      getChunkHeatmap(db, "bigrun", { metric: RELEVANCE, limitRows: 50, fromRowNumber: ROWS - 49 }),
    );
    expect(lastPage.result.rows.at(-1)!.rowNumber).toBe(ROWS);
    const usage = await reads((db) => getJudgeUsage(db, "bigrun"));
    expect(usage.result.total.inputTokens).toBe(ROWS * METRICS.length * 400);
    // A query that loaded the run (10,000 rows, each with its metrics and chunks) would read tens of thousands
    // of rows, or send a statement per row; a heatmap page is 50 rows and their 250 cells.
    for (const { statements, rows } of [histogram, firstPage, lastPage, usage]) {
      expect(statements).toBeLessThanOrEqual(4);
      expect(rows).toBeLessThan(1_000);
    }
  });
});

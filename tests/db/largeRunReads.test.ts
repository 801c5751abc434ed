import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { BoundParameterLimitError, MAX_BOUND_PARAMETERS } from "@/lib/db/store/boundParameters";
import { getChunkHeatmap, getJudgeUsage, getValueHistogram, HEATMAP_MAX_ROWS } from "@/lib/db/judgments/chartQueries";
import { sqlOf, type Db } from "@/lib/db/client";
import { getPairedCounts, getScorePairs, listFlips } from "@/lib/db/judgments/compareQueries";
import {
  getDatasetRow,
  getInputCoverage,
  getNeighbourRows,
  listDatasetRows,
  listDatasets,
} from "@/lib/db/datasets/datasetQueries";
import { listRunResultsPage } from "@/lib/db/judgments/resultQueries";
import { getRunProgress, listRuns, listRunsForPicker } from "@/lib/db/runs/runQueries";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { getRunRowDetail, getRunRowNeighbours, listRunRows } from "@/lib/db/runs/runRowQueries";
import { RUN_ROW_FILTERS } from "@/lib/contract/rowQueries";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { comparisonResultsCsv, comparisonResultsJson, runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import { DATABRICKS_METRICS } from "@/lib/contract/metricCatalog";
import { readRun, runToCompletion } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { openDataset } from "../support/servedDataset";

/**
 * Every repository read the app, the engine and the exports make, against a
 * run far larger than MAX_BOUND_PARAMETERS rows, with the bound-value guard
 * that createDb() installs: a query whose bound values grow with the data
 * (an `in` list of ids, a nested relation load on a findMany) fails here, at
 * a few hundred rows, instead of on a user's 20,000-row run at 999.
 */
const ROWS = 400;
const CHUNKS = 5;
// Every Databricks judge and metric: the score families are LLM-only or need other inputs, and have tests of their own.
const ALL_METRICS = DATABRICKS_METRICS.map((metric) => metric.name);

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece;
  return text;
}

describe(`repository reads on a ${ROWS}-row run × every judge × ${CHUNKS} chunks`, () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runA: string;
  let runB: string;

  beforeAll(async () => {
    ({ db, cleanup, datasetId } = await openDataset(syntheticRows(ROWS, CHUNKS)));
    // Planning, pending work (pages of 400 items) and saving all go through the guarded client.
    const a = await runToCompletion(
      db,
      { datasetId, metrics: ALL_METRICS, judge: { provider: "heuristic", model: "heuristic" }, name: "A" },
      null,
    );
    const b = await runToCompletion(
      db,
      { datasetId, metrics: ALL_METRICS.slice(0, 5), judge: { provider: "heuristic", model: "heuristic" }, name: "B" },
      null,
    );
    expect([a.outcome.status, b.outcome.status]).toEqual(["completed", "completed"]);
    runA = a.runId;
    runB = b.runId;
    // More datasets and runs than the guard allows values, so a per-dataset or per-run list in the lists would show.
    const old = new Date(Date.now() - 86_400_000);
    const datasets = Array.from({ length: MAX_BOUND_PARAMETERS * 3 }, (_, i) => [
      randomUUID(),
      `empty ${i}`,
      "ready",
      0,
      old,
    ]);
    await sqlOf(db).bulkInsert([
      { table: "Dataset", columns: ["id", "name", "status", "rowCount", "createdAt"], rows: datasets },
      {
        table: "Run",
        columns: ["id", "datasetId", "name", "status", "judgeProvider", "judgeModel", "createdAt"],
        rows: datasets.map(([id], i) => [randomUUID(), id, `old run ${i}`, "completed", "heuristic", "heuristic", old]),
      },
    ]);
  }, 120_000);
  afterAll(async () => cleanup());

  it("the guard rejects a query whose bound values grow with the data (an id list, a nested relation load)", async () => {
    const ids = (await db.datasetRow.findMany({ where: { datasetId }, select: { id: true } })).map((row) => row.id);
    expect(ids).toHaveLength(ROWS);
    await expect(db.datasetRow.findMany({ where: { id: { in: ids } }, select: { id: true } })).rejects.toThrow(
      BoundParameterLimitError,
    );
    // The shape the export used to have: Prisma loads the relation with one bound value per parent row.
    await expect(
      db.datasetRow.findMany({
        where: { datasetId },
        select: { id: true, judgments: { where: { runId: runA }, select: { metric: true } } },
      }),
    ).rejects.toThrow(/binds \d+ values/);
  });

  it("run pages: every filter, the largest page, neighbours and the drill-down", async () => {
    const run = { id: runA, datasetId };
    for (const filter of RUN_ROW_FILTERS) {
      const page = await listRunRows(db, run, {
        filter,
        q: "",
        sort: "requestId",
        dir: "desc",
        page: 2,
        pageSize: 100,
      });
      expect(page.items.length).toBeGreaterThanOrEqual(0);
    }
    const all = await listRunRows(db, run, {
      filter: "all",
      q: "",
      sort: "rowNumber",
      dir: "asc",
      page: 1,
      pageSize: 100,
    });
    expect(all.total).toBe(ROWS);
    expect(all.items).toHaveLength(100);
    expect(Object.keys(all.items[0].verdicts)).toHaveLength(ALL_METRICS.length);
    const middle = all.items[50];
    expect(await getRunRowNeighbours(db, run, 51, { filter: "all", q: "" })).toMatchObject({
      previousId: all.items[49].id,
      nextId: all.items[51].id,
    });
    const detail = await getRunRowDetail(db, runA, middle.id);
    expect(detail?.chunks.filter((c) => c.kind === "retrieved")).toHaveLength(CHUNKS);
    expect(detail?.judgments).toHaveLength(ALL_METRICS.length);
    expect(detail?.judgments.find((j) => j.metric === "retrieval/llm_judged/chunk_relevance")?.chunks).toHaveLength(
      CHUNKS,
    );
    expect(await getRunAggregates(db, runA, ALL_METRICS)).not.toHaveLength(0);
    expect((await getRunProgress(db, runA)).judgments.total).toBe(ROWS * ALL_METRICS.length);
  });

  it("run and dataset lists, dataset pages and rows", async () => {
    const runs = await listRuns(db);
    expect(runs).toHaveLength(MAX_BOUND_PARAMETERS * 3 + 2);
    expect(
      runs
        .slice(0, 2)
        .map((r) => r.id)
        .sort(),
    ).toEqual([runA, runB].sort());
    expect(runs.every((r) => r.dataset.name !== "")).toBe(true);
    expect(runs.find((r) => r.id === runA)?.counts.done).toBeGreaterThan(0);
    expect(runs.find((r) => r.id === runA)?.headlines.length).toBeGreaterThan(0);
    expect(await listRuns(db, 20, datasetId)).toHaveLength(2);
    const picker = await listRunsForPicker(db);
    expect(picker.slice(0, 2).map((r) => r.dataset.id)).toEqual([datasetId, datasetId]);
    expect(new Set(picker.map((r) => r.dataset.name)).size).toBe(MAX_BOUND_PARAMETERS * 3 + 1);
    const datasets = await listDatasets(db);
    expect(datasets.length).toBe(MAX_BOUND_PARAMETERS * 3 + 1);
    expect(datasets.find((d) => d.id === datasetId)?._count.runs).toBe(2);
    expect(datasets.filter((d) => d._count.runs === 1)).toHaveLength(MAX_BOUND_PARAMETERS * 3);
    const rows = await listDatasetRows(db, datasetId, {
      page: 3,
      pageSize: 100,
      sort: "requestText",
      dir: "asc",
      q: "",
    });
    expect(rows.items).toHaveLength(100);
    expect((await getDatasetRow(db, datasetId, rows.items[0].id))?.chunks.length).toBe(CHUNKS + 1);
    expect(await getNeighbourRows(db, datasetId, 10)).toMatchObject({
      previousId: expect.any(String),
      nextId: expect.any(String),
    });
    expect((await getInputCoverage(db, datasetId)).rowCount).toBe(ROWS);
  });

  it("charts: histograms, the largest heatmap page, judge usage", async () => {
    const heatmap = await getChunkHeatmap(db, runA, {
      metric: "retrieval/llm_judged/chunk_relevance",
      limitRows: HEATMAP_MAX_ROWS,
      fromRowNumber: 101,
    });
    expect(heatmap.rows).toHaveLength(HEATMAP_MAX_ROWS);
    expect(heatmap.rows[0].rowNumber).toBe(101);
    expect(
      heatmap.rows.every(
        (row) =>
          row.cells.length === CHUNKS && row.cells.every((cell) => cell.verdict === "yes" || cell.verdict === "no"),
      ),
    ).toBe(true);
    expect(heatmap.totalRows).toBe(ROWS);
    await getValueHistogram(db, runA, "agent/latency_seconds", 12);
    expect((await getJudgeUsage(db, runA)).total.items).toBe(ROWS * ALL_METRICS.length);
  });

  it("compare: aggregates, paired tests, flips", async () => {
    const comparison = await compareRuns(db, [runA, runB], runA);
    expect(comparison?.metrics.length).toBe(ALL_METRICS.length);
    expect((await getPairedCounts(db, runA, runB)).length).toBe(5);
    await getScorePairs(db, runA, runB, "retrieval/llm_judged/chunk_relevance");
    await listFlips(db, runA, runB, { offset: 0, limit: 100 });
  });

  it("exports: run JSON and CSV, comparison JSON and CSV, page by page", async () => {
    const page = await listRunResultsPage(db, runA, datasetId, 0, 500);
    expect(page.rows).toHaveLength(ROWS);
    expect(page.nextRowNumber).toBeNull();
    expect(JSON.parse(await collect(runResultsJson(db, runA))).rows).toHaveLength(ROWS);
    expect((await collect(runResultsCsv(db, runA))).trimEnd().split("\r\n").length).toBeGreaterThan(ROWS);
    expect(
      JSON.parse(await collect(comparisonResultsJson(db, [runA, runB]))).runs.map(
        (r: { rows: unknown[] }) => r.rows.length,
      ),
    ).toEqual([ROWS, ROWS]);
    expect((await collect(comparisonResultsCsv(db, [runA, runB]))).length).toBeGreaterThan(0);
  });

  it("re-judging failed items resets them without an id list, and the engine judges them again", async () => {
    const reset = await resetJudgmentsForRejudge(db, runA, "errored_or_failed");
    expect(reset).toBeGreaterThan(MAX_BOUND_PARAMETERS);
    expect((await getRunProgress(db, runA)).judgments.pending).toBe(reset);
    const run = await readRun(db, runA);
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: null }));
    expect(outcome.status).toBe("completed");
    expect(outcome.judgments.pending).toBe(0);
  }, 60_000);
});

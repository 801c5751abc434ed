import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import { createRun } from "@/lib/engine/createRun";
import { parseRunRowQuery, type RunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

/**
 * The rows table sorted by a metric's verdict and score, in SQL, on a real
 * SQLite file. Eight rows whose verdicts are written by hand, so each order
 * below can be checked by eye: worst first is failed (worst score first),
 * then errored, then passed (worst score first), then the rows with nothing
 * to read (skipped, pending) in row order, in both directions.
 */
const FAITHFULNESS = "response/llm_judged/faithfulness"; // higher is better
const HALLUCINATION = "response/llm_judged/hallucination"; // lower is better
const CORRECTNESS = "response/llm_judged/correctness"; // yes / no, no score
const METRICS = [FAITHFULNESS, HALLUCINATION, CORRECTNESS];

type Verdict = { status: string; score?: number; passed?: boolean };
const done = (score: number | undefined, passed: boolean): Verdict => ({ status: "done", score, passed });
const ERROR: Verdict = { status: "error" };
const SKIPPED: Verdict = { status: "skipped" };
const PENDING: Verdict = { status: "pending" };

/** Row number → verdict, per metric. */
const VERDICTS: Record<string, Verdict[]> = {
  [FAITHFULNESS]: [
    done(0.9, true),
    done(0.2, false),
    ERROR,
    done(0.4, false),
    SKIPPED,
    done(0.6, true),
    done(0.1, false),
    PENDING,
  ],
  [HALLUCINATION]: [
    done(0.1, true),
    done(0.8, false),
    ERROR,
    done(0.95, false),
    SKIPPED,
    done(0.3, true),
    done(0.9, false),
    PENDING,
  ],
  [CORRECTNESS]: [
    done(undefined, true),
    done(undefined, false),
    done(undefined, true),
    done(undefined, false),
    done(undefined, true),
    done(undefined, true),
    done(undefined, false),
    ERROR,
  ],
};

describe("sorting a run's rows by a metric, worst first, in SQL", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let run: { id: string; datasetId: string };

  const numbersOf = async (params: Record<string, string>) => {
    const query: RunRowQuery = parseRunRowQuery(params, METRICS);
    return (await listRunRows(db, run, query)).items.map((row) => row.rowNumber);
  };

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(db, syntheticRows(8, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: METRICS,
      judge: { provider: "heuristic", model: "heuristic" },
      name: "verdicts by hand",
    });
    run = { id: runId, datasetId };
    const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } });
    for (const row of rows)
      for (const metric of METRICS) {
        const verdict = VERDICTS[metric][row.rowNumber - 1];
        await db.judgmentItem.updateMany({
          where: { runId, rowId: row.id, metric },
          data: { status: verdict.status, score: verdict.score ?? null, passed: verdict.passed ?? null },
        });
      }
  });
  afterAll(async () => cleanup());

  it("puts a higher-is-better metric's failures first, lowest score first, then errors, passes, and unjudged rows", async () => {
    expect(await numbersOf({ sort: FAITHFULNESS, dir: "asc" })).toEqual([7, 2, 4, 3, 6, 1, 5, 8]);
  });

  it("reads a lower-is-better score the other way: the highest hallucination first", async () => {
    expect(await numbersOf({ sort: HALLUCINATION, dir: "asc" })).toEqual([4, 7, 2, 3, 6, 1, 5, 8]);
  });

  it("turns it round for best first, and keeps unjudged rows last", async () => {
    expect(await numbersOf({ sort: FAITHFULNESS, dir: "desc" })).toEqual([1, 6, 3, 4, 2, 7, 5, 8]);
    expect(await numbersOf({ sort: HALLUCINATION, dir: "desc" })).toEqual([1, 6, 3, 2, 7, 4, 5, 8]);
  });

  it("sorts a yes / no metric by its verdict, ties by row number", async () => {
    expect(await numbersOf({ sort: CORRECTNESS, dir: "asc" })).toEqual([2, 4, 7, 8, 1, 3, 5, 6]);
  });

  it("sorts within the filter and pages the sorted rows, with the filter's count", async () => {
    // Rows that failed correctness: 2, 4, 7; by faithfulness worst first: 7 (0.1), 2 (0.2), 4 (0.4).
    expect(await numbersOf({ filter: "failed", metric: CORRECTNESS, sort: FAITHFULNESS })).toEqual([7, 2, 4]);
    const query = parseRunRowQuery({ sort: FAITHFULNESS, pageSize: "25" }, METRICS);
    const page = await listRunRows(db, run, { ...query, pageSize: 3, page: 2 });
    expect(page.items.map((row) => row.rowNumber)).toEqual([3, 6, 1]);
    expect(page.total).toBe(8);
    expect(page.pageCount).toBe(3);
  });

  it("searches as the unsorted table does, % taken literally", async () => {
    expect(await numbersOf({ sort: FAITHFULNESS, q: "row-7" })).toEqual([7]);
    expect(await numbersOf({ sort: FAITHFULNESS, q: "%" })).toEqual([]);
  });

  it("falls back to row order for a metric the run does not have", async () => {
    expect(parseRunRowQuery({ sort: "response/llm_judged/toxicity" }, METRICS).sort).toBe("rowNumber");
    expect(await numbersOf({ sort: "response/llm_judged/toxicity" })).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

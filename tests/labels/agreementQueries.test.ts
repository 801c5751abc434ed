import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf } from "@/lib/db/client";
import { getRunAgreement, pairedLabelsSql, readPairedRunAgreement } from "@/lib/db/labels/agreementQueries";
import {
  getDisagreementNeighbours,
  listAgreementCellRows,
  listDisagreementRows,
} from "@/lib/db/labels/agreementRowQueries";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { getSortedRowPlace } from "@/lib/db/runs/runRowSortedPlace";
import type { LabelEntry } from "@/lib/contract/labelEntry";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { pairedAgreementTest } from "@/lib/stats";
import { syntheticRows } from "../support/syntheticRows";
import { openDataset, type StoredDataset } from "../support/servedDataset";
import { testStore } from "../support/tempDb";
import { rowIdsByNumber, seedRun, type SeedVerdict } from "./seedRuns";

/**
 * A 12-row dataset (3 chunks each), labels on three metrics and two runs
 * whose verdicts are chosen, so every figure below is worked out by hand.
 *
 * groundedness labels (human): rows 1–4 yes, 5 no, 6–7 yes, 8–9 no, 10 yes, 12 no.
 * Run A: rows 1–5 yes, 6–9 no, 10 error, 11 yes (no label), 12 skipped.
 *   → yesYes 4 (1–4), yesNo 1 (5), noYes 2 (6, 7), noNo 2 (8, 9); errors 1 (10); unjudged 1 (12).
 *   n = 9, po = 6/9; judge yes 5/9, human yes 6/9; pe = (5·6 + 4·3)/81 = 42/81 = 14/27;
 *   κ = (18/27 − 14/27)/(13/27) = 4/13.
 * Run B agrees with every label on rows 1–10, says no on 12.
 *   Paired on rows judged in both (1–9): both agree 6, only B agrees 3 (5, 6, 7) → McNemar(0, 3) p = 2/8.
 * chunk_relevance labels: row 1 [yes, no, –], row 2 [no, no, yes]; run A chunks row 1 [yes, yes, no], row 2 [no, error, yes]
 *   → yesYes 2, yesNo 1, noNo 1, errors 1.
 * faithfulness (score) labels rows 1–4 [.2, .3, .8, .7]; run A scores [.1, .4, .4, .9], threshold .5
 *   → pass/fail: judge [no, no, no, yes], human [no, no, yes, yes]: yesYes 1, noYes 1, noNo 2;
 *   Spearman 3/√22.5 (worked in tests/stats/agreement.test.ts), MAD .2.
 */
const G = "response/llm_judged/groundedness";
const CR = "retrieval/llm_judged/chunk_relevance";
const F = "response/llm_judged/faithfulness";

const rating = (metric: string, value: "yes" | "no", chunkPosition = -1): LabelEntry => ({
  metric,
  chunkPosition,
  value: { kind: "rating", rating: value },
});

describe("agreement of a run's judges with human labels, in SQL", () => {
  let world: StoredDataset & { runA: string; runB: string };

  beforeAll(async () => {
    const dataset = await openDataset(syntheticRows(12, 3));
    const { db, datasetId } = dataset;
    const rows = await rowIdsByNumber(db, datasetId);
    const human: Record<number, "yes" | "no"> = { 1: "yes", 2: "yes", 3: "yes", 4: "yes", 5: "no", 6: "yes", 7: "yes" };
    Object.assign(human, { 8: "no", 9: "no", 10: "yes", 12: "no" });
    const humanScores = [0.2, 0.3, 0.8, 0.7];
    await writeLabels(
      db,
      datasetId,
      [...rows].map(([rowNumber, rowId]) => ({
        rowId,
        entries: [
          ...(human[rowNumber] ? [rating(G, human[rowNumber])] : []),
          ...(rowNumber === 1 ? [rating(CR, "yes", 0), rating(CR, "no", 1)] : []),
          ...(rowNumber === 2 ? [rating(CR, "no", 0), rating(CR, "no", 1), rating(CR, "yes", 2)] : []),
          ...(rowNumber <= 4
            ? [{ metric: F, chunkPosition: -1, value: { kind: "score" as const, score: humanScores[rowNumber - 1] } }]
            : []),
        ],
      })),
      { labelledBy: null, source: "upload" },
    );
    const judgeA: SeedVerdict[] = [
      ...[1, 2, 3, 4, 5, 11].map((rowNumber) => ({ rowNumber, metric: G, rating: "yes" as const })),
      ...[6, 7, 8, 9].map((rowNumber) => ({ rowNumber, metric: G, rating: "no" as const })),
      { rowNumber: 10, metric: G, status: "error" },
      { rowNumber: 12, metric: G, status: "skipped" },
      { rowNumber: 1, metric: CR, score: 1 / 3, chunks: ["yes", "yes", "no"] },
      { rowNumber: 2, metric: CR, score: 0.5, chunks: ["no", "error", "yes"] },
      ...[0.1, 0.4, 0.4, 0.9].map((score, i) => ({ rowNumber: i + 1, metric: F, score, threshold: 0.5 })),
    ];
    const runA = await seedRun(db, datasetId, "A", judgeA);
    const runB = await seedRun(
      db,
      datasetId,
      "B",
      Object.entries(human).map(([rowNumber, label]) => ({
        rowNumber: Number(rowNumber),
        metric: G,
        rating: Number(rowNumber) === 12 ? "no" : label,
      })),
    );
    world = { ...dataset, runA, runB };
  }, 60_000);
  afterAll(async () => world.cleanup());

  it("counts the confusion cells, errors and unjudged labels per metric, and κ from them", async () => {
    const { db, datasetId, runA } = world;
    const agreement = await getRunAgreement(db, { id: runA, datasetId });
    const byMetric = new Map(agreement.map((row) => [row.metric, row]));
    const g = byMetric.get(G);
    expect(g).toMatchObject({
      confusion: { yesYes: 4, yesNo: 1, noYes: 2, noNo: 2 },
      labelled: 9,
      errors: 1,
      unjudged: 1,
      kind: "rating",
      perChunk: false,
    });
    expect(g?.rawAgreement).toBeCloseTo(6 / 9, 12);
    expect(g?.kappa.defined && g.kappa.kappa).toBeCloseTo(4 / 13, 12);

    expect(byMetric.get(CR)).toMatchObject({
      confusion: { yesYes: 2, yesNo: 1, noYes: 0, noNo: 1 },
      errors: 1,
      perChunk: true,
    });

    const f = byMetric.get(F);
    expect(f).toMatchObject({ kind: "score", confusion: { yesYes: 1, yesNo: 0, noYes: 1, noNo: 2 }, errors: 0 });
    expect(f?.scores?.pairs).toBe(4);
    expect(f?.scores?.spearman.defined && f.scores.spearman.rho).toBeCloseTo(3 / Math.sqrt(22.5), 12);
    expect(f?.scores?.meanAbsoluteDifference).toBeCloseTo(0.2, 12);
  });

  it("pairs two runs on the labels both judged, for the McNemar test", async () => {
    const { db, datasetId, runA, runB } = world;
    const counts = await readPairedRunAgreement(db, { id: runA, datasetId }, { id: runB, datasetId });
    expect(counts).toEqual([{ metric: G, bothAgree: 6, onlyAAgrees: 0, onlyBAgrees: 3, bothDisagree: 0 }]);
    expect(pairedAgreementTest(counts[0]).pValue).toBeCloseTo(0.25, 12);

    // The compare page's table: each side equals the run's own figures, and the paired test sits beside.
    const compared = await compareRunAgreement(db, { id: runA, datasetId }, { id: runB, datasetId });
    expect(compared.map((row) => row.metric)).toEqual([G, F, CR].sort());
    const g = compared.find((row) => row.metric === G);
    expect(g?.a).toEqual((await getRunAgreement(db, { id: runA, datasetId })).find((row) => row.metric === G));
    // Run B: rows 1–10 agree, row 12 judge no / human no: yesYes 7 (1–4, 6, 7, 10), noNo 4 (5, 8, 9, 12).
    expect(g?.b).toMatchObject({ confusion: { yesYes: 7, yesNo: 0, noYes: 0, noNo: 4 }, errors: 0, unjudged: 0 });
    expect(g?.paired).toMatchObject({ pairs: 9, onlyBAgrees: 3, pValue: 0.25 });
    // Run B judged no chunk or score labels: nothing to pair.
    expect(compared.find((row) => row.metric === CR)?.paired).toBeNull();
    expect(compared.find((row) => row.metric === F)?.b).toMatchObject({ labelled: 0, unjudged: 4 });
  });

  it("sorts the disagreement and confusion-cell rows by a metric's verdict and score, and steps through them in that order", async () => {
    const { db, datasetId, runA } = world;
    const run = { id: runA, datasetId };
    const base = { q: "", page: 1, pageSize: 50 };
    // Disagreeing rows 1, 3, 5, 6, 7. Faithfulness scored 1 (.1) and 3 (.4), lowest first when worst first;
    // 5, 6, 7 have no faithfulness verdict and stay last either way.
    expect(
      (await listDisagreementRows(db, run, { ...base, sort: F, dir: "asc" })).items.map((row) => row.rowNumber),
    ).toEqual([1, 3, 5, 6, 7]);
    expect(
      (await listDisagreementRows(db, run, { ...base, sort: F, dir: "desc" })).items.map((row) => row.rowNumber),
    ).toEqual([3, 1, 5, 6, 7]);
    // The cell "judge no, label no" on groundedness (8, 9), sorted by faithfulness: neither has one, row order.
    const cell = await listAgreementCellRows(
      db,
      run,
      G,
      { judge: "no", human: "no" },
      { ...base, sort: F, dir: "asc" },
    );
    expect(cell.items.map((row) => row.rowNumber)).toEqual([8, 9]);

    // The drill-down follows the same order: row 1 is second (3, 1, 5, …); n goes where j goes.
    const rows = await rowIdsByNumber(db, datasetId);
    const place = await getSortedRowPlace(db, run, rows.get(1) ?? "", {
      filter: "disagrees",
      q: "",
      sort: F,
      dir: "desc",
    });
    expect(place).toEqual({
      previousId: rows.get(3),
      nextId: rows.get(5),
      nextFailedId: rows.get(5),
      index: 2,
      total: 5,
    });
    const inCell = await getSortedRowPlace(db, run, rows.get(8) ?? "", {
      filter: "cell",
      metric: G,
      cell: "no-no",
      q: "",
      sort: G,
      dir: "desc",
    });
    expect(inCell).toMatchObject({ previousId: null, nextId: rows.get(9), index: 1, total: 2 });
  });

  it("lists one confusion cell's rows and the rows where the judge disagrees, paged and sorted like the rows table", async () => {
    const { db, datasetId, runA, runB } = world;
    const base = { q: "", sort: "rowNumber" as const, dir: "asc" as const, page: 1, pageSize: 50 };
    const cell = await listAgreementCellRows(db, { id: runA, datasetId }, G, { judge: "no", human: "yes" }, base);
    expect(cell.items.map((row) => row.rowNumber)).toEqual([6, 7]);
    const errored = await listAgreementCellRows(db, { id: runA, datasetId }, G, { errors: true }, base);
    expect(errored.items.map((row) => row.rowNumber)).toEqual([10]);

    // groundedness 5, 6, 7; chunk_relevance row 1 (chunk 1); faithfulness row 3 — each row once.
    const all = await listDisagreementRows(db, { id: runA, datasetId }, base);
    expect(all.items.map((row) => row.rowNumber)).toEqual([1, 3, 5, 6, 7]);
    const page = await listDisagreementRows(
      db,
      { id: runA, datasetId },
      {
        ...base,
        sort: "requestId",
        dir: "desc",
        pageSize: 2,
        page: 2,
      },
    );
    expect(page).toMatchObject({ total: 5, page: 2, pageCount: 3 });
    expect(page.items.map((row) => row.requestId)).toEqual(["row-5", "row-3"]);
    const oneMetric = await listDisagreementRows(db, { id: runA, datasetId }, { ...base, metric: CR });
    expect(oneMetric.items.map((row) => row.rowNumber)).toEqual([1]);
    const searched = await listDisagreementRows(db, { id: runA, datasetId }, { ...base, q: "row-7" });
    expect(searched.items.map((row) => row.rowNumber)).toEqual([7]);
    // Underscore and percent are text in a search, not LIKE wildcards.
    expect((await listDisagreementRows(db, { id: runA, datasetId }, { ...base, q: "row_7" })).total).toBe(0);
    expect(all.items[0]).toMatchObject({ requestId: "row-1", requestText: expect.any(String) });

    // The drill-down inside the filter: row 5 sits between 3 and 6, third of five; row 2 is not in it.
    const rows = await rowIdsByNumber(db, datasetId);
    const at = (n: number) => ({ id: rows.get(n) ?? "", rowNumber: n });
    expect(await getDisagreementNeighbours(db, { id: runA, datasetId }, at(5), { q: "" })).toEqual({
      previousId: rows.get(3),
      nextId: rows.get(6),
      index: 3,
      total: 5,
    });
    expect(await getDisagreementNeighbours(db, { id: runA, datasetId }, at(2), { q: "" })).toMatchObject({
      previousId: rows.get(1),
      index: null,
    });
    // Run B agrees everywhere it judged.
    expect((await listDisagreementRows(db, { id: runB, datasetId }, base)).total).toBe(0);
  });

  // A dataset's few thousand labels against a store of a million chunk verdicts: PostgreSQL's cost model
  // sometimes preferred reading every chunk verdict into a hash (600–780 ms) to looking each label's up by
  // key (40–100 ms). With nested loops priced out, a plain LEFT JOIN becomes exactly that hash or merge join.
  it.runIf(testStore() === "postgresql")(
    "looks each chunk label's verdict up by key, whatever join PostgreSQL would rather make",
    async () => {
      const { db, datasetId, runA } = world;
      const sql = sqlOf(db);
      const statement = `WITH paired AS (${pairedLabelsSql(sql)})
        SELECT "metric", COUNT(*) FILTER (WHERE "outcome" = 'judged' AND "judge" = "human") AS "agreed" FROM paired GROUP BY "metric"`;
      const plan = await sql.transaction(async (tx) => {
        await tx.run("SET LOCAL enable_nestloop = off");
        return tx.all<{ "QUERY PLAN": string }>(`EXPLAIN ${statement}`, { runId: runA, datasetId });
      });
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text).toMatch(/Index (Only )?Scan using "ChunkJudgment_judgmentId_position_key" on "ChunkJudgment"/);
      expect(text).toMatch(/Index Cond: \(\("judgmentId" = j\.id\) AND \("position" = l\."chunkPosition"\)\)/);
      expect(text).not.toMatch(/Seq Scan on "ChunkJudgment"/);
    },
  );
});

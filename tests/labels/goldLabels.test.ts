// Several people label the same keys: each keeps their own label, the gold label (what the judge's
// agreement, the tables and alignment read) is the strict majority of yes/no, the median of scores, an
// admin's adjudication when there is one; a tie has none. The rows table's "people differ" filter lists
// the rows where people's labels differ, with the drill-down's place among them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sqlOf, type Db } from "@/lib/db/client";
import { adjudicateLabel, clearAdjudication } from "@/lib/db/labels/adjudicationWrites";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import { getRowLabelHistory } from "@/lib/db/labels/labelQueries";
import { readGoldCounts } from "@/lib/db/labels/peopleLabelQueries";
import { getRunRowPlace, listRunRows } from "@/lib/db/runs/runRowQueries";
import { importLabelFile } from "@/lib/labels/labelImport";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { exportColumnNames, exportLabellers, runResultRecords } from "@/lib/export/runResults";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { readPeopleAgreement } from "@/lib/labels/peopleAgreementReport";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { parseRunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun } from "./seedRuns";

const GROUNDEDNESS = "response/llm_judged/groundedness";
const FAITHFULNESS = "response/llm_judged/faithfulness";

const once = (text: string) =>
  (async function* () {
    yield text;
  })();

describe("gold labels from several people's labels", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(12, 1));
    rows = await rowIdsByNumber(db, datasetId);
  }, 60_000);
  afterAll(async () => cleanup());

  const gold = (rowNumber: number, metric = GROUNDEDNESS) =>
    sqlOf(db).get<{
      rating: string | null;
      score: number | null;
      gold: string;
      labels: number;
      labelledBy: string | null;
    }>(
      `SELECT "rating", "score", "gold", "labels", "labelledBy" FROM "HumanLabel" WHERE "rowId" = ? AND "metric" = ?`,
      [rows.get(rowNumber) ?? "", metric],
    );

  it("imports several people's labels of a row in one file: majority, median, tie", async () => {
    const records = [
      // Row 1: two yes, one no → yes. Row 2: one yes, one no → a tie, no gold label. Row 3: one person.
      ["row-1", "groundedness", "yes", "ann"],
      ["row-1", "groundedness", "yes", "bob"],
      ["row-1", "groundedness", "no", "cy"],
      ["row-2", "groundedness", "yes", "ann"],
      ["row-2", "groundedness", "no", "bob"],
      ["row-3", "groundedness", "no", "ann"],
      // Scores: the median of 0.2, 0.9, 0.6 is 0.6; of 0.2 and 0.4, 0.3.
      ["row-1", "faithfulness", 0.2, "ann"],
      ["row-1", "faithfulness", 0.9, "bob"],
      ["row-1", "faithfulness", 0.6, "cy"],
      ["row-2", "faithfulness", 0.2, "ann"],
      ["row-2", "faithfulness", 0.4, "bob"],
    ].map(([request_id, metric, label, labelled_by]) => JSON.stringify({ request_id, metric, label, labelled_by }));
    const result = await importLabelFile(db, datasetId, once(`${records.join("\n")}\n`), "jsonl", { importedBy: null });
    expect(result).toMatchObject({ ok: true, records: 11, changed: 11 });
    expect(await gold(1)).toMatchObject({ rating: "yes", gold: "majority", labels: 3 });
    expect(await gold(2)).toBeUndefined();
    expect(await gold(3)).toMatchObject({ rating: "no", gold: "single", labels: 1, labelledBy: "ann" });
    expect(await gold(1, FAITHFULNESS)).toMatchObject({ score: 0.6, gold: "median", labels: 3 });
    expect((await gold(2, FAITHFULNESS))?.score).toBeCloseTo(0.3, 12);
    // Each person's label of a key is its own revision of the key, in file order.
    const history = (await getRowLabelHistory(db, rows.get(1) ?? "")).filter((r) => r.metric === GROUNDEDNESS);
    expect(history.map((r) => r.revision).sort()).toEqual([1, 2, 3]);
    // The label file exports every person's label; imported back, it changes nothing.
    const exported: string[] = [];
    for await (const piece of labelFilePieces(db, datasetId, "jsonl")) exported.push(piece);
    const lines = exported
      .join("")
      .trim()
      .split("\n")
      .map((line) => z.object({ labelled_by: z.string() }).parse(JSON.parse(line)));
    expect(lines).toHaveLength(11);
    expect(new Set(lines.map((line) => line.labelled_by))).toEqual(new Set(["ann", "bob", "cy"]));
    const back = await importLabelFile(db, datasetId, once(exported.join("")), "jsonl", { importedBy: null });
    expect(back).toMatchObject({ ok: true, records: 11, changed: 0 });
    // The same file again changes nothing.
    const again = await importLabelFile(db, datasetId, once(`${records.join("\n")}\n`), "jsonl", { importedBy: null });
    expect(again).toMatchObject({ ok: true, changed: 0 });
    expect(await readGoldCounts(db, datasetId, GROUNDEDNESS)).toMatchObject({
      single: 1,
      majority: 1,
      tied: 1,
      disagreed: 2,
    });
  });

  it("refuses the same person labelling one key twice in a file, with both rows named", async () => {
    const records = [
      { request_id: "row-4", metric: "groundedness", label: "yes", labelled_by: "ann" },
      { request_id: "row-4", metric: "groundedness", label: "no", labelled_by: "ann" },
    ].map((record) => JSON.stringify(record));
    const result = await importLabelFile(db, datasetId, once(`${records.join("\n")}\n`), "jsonl", { importedBy: null });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain("row 1");
  });

  it("an admin's adjudication decides a tie, and removing it gives the people their say back", async () => {
    const key = { datasetId, rowId: rows.get(2) ?? "", metric: GROUNDEDNESS, chunkPosition: -1 };
    await expect(
      adjudicateLabel(db, key, { value: { kind: "rating", rating: "no" }, reason: " ", decidedBy: "admin" }),
    ).rejects.toThrow(/reason/);
    await adjudicateLabel(db, key, {
      value: { kind: "rating", rating: "no" },
      reason: "The answer cites a page the context never gave.",
      decidedBy: "admin",
    });
    expect(await gold(2)).toMatchObject({ rating: "no", gold: "adjudicated", labels: 2, labelledBy: "admin" });
    // A later label changes no adjudicated gold.
    await saveRowLabel(db, { datasetId, rowId: key.rowId, metric: "groundedness", value: "yes", labelledBy: "dan" });
    expect(await gold(2)).toMatchObject({ rating: "no", gold: "adjudicated", labels: 2 });
    expect(await clearAdjudication(db, key, { by: "admin" })).toBe(true);
    // Now ann, dan yes and bob no: yes by majority.
    expect(await gold(2)).toMatchObject({ rating: "yes", gold: "majority", labels: 3 });
    const nobody = { ...key, rowId: rows.get(9) ?? "" };
    await expect(
      adjudicateLabel(db, nobody, { value: { kind: "rating", rating: "no" }, reason: "x", decidedBy: "admin" }),
    ).rejects.toThrow(/nobody labelled/);
  });

  it("a run's judge is measured on gold labels only, and the people's agreement names the ties", async () => {
    // The judge says yes everywhere; rows 1–3 are labelled (2 now yes by majority, 3 no by one person).
    const runId = await seedRun(
      db,
      datasetId,
      "judge",
      [1, 2, 3, 4].map((rowNumber) => ({ rowNumber, metric: GROUNDEDNESS, rating: "yes" as const })),
    );
    const [groundedness] = (await getRunAgreement(db, { id: runId, datasetId })).filter(
      (a) => a.metric === GROUNDEDNESS,
    );
    expect(groundedness.confusion).toEqual({ yesYes: 2, yesNo: 1, noYes: 0, noNo: 0 });
    const report = await readPeopleAgreement(db, { datasetId, metric: GROUNDEDNESS, kind: "rating", runId });
    expect(report?.labellers.map((l) => l.id)).toEqual(["ann", "bob", "cy", "dan"]);
    expect(report?.agreement.pairableRows).toBe(2);
    expect(report?.judge?.pairs.find((p) => p.labeller === 0)).toMatchObject({ rows: 3, agreement: 2 / 3 });
    // Compare's agreement table gives the people's α beside both runs (here the run against itself).
    const [compared] = (await compareRunAgreement(db, { id: runId, datasetId }, { id: runId, datasetId })).filter(
      (row) => row.metric === GROUNDEDNESS,
    );
    expect(compared.people).toMatchObject({ level: "nominal", pairableRows: 2 });
    // The results export: the gold label, then one column per labeller of a metric several people labelled.
    const exported = {
      id: runId,
      datasetId,
      metrics: [GROUNDEDNESS],
      withLabels: true,
      runJudges: [],
      labellers: await exportLabellers(db, datasetId, [GROUNDEDNESS], []),
    };
    const columns = exportColumnNames(exported);
    const gold = columns.indexOf(`${GROUNDEDNESS}/human_label`);
    expect(columns.slice(gold, gold + 5)).toEqual([
      `${GROUNDEDNESS}/human_label`,
      `${GROUNDEDNESS}/human_label/ann`,
      `${GROUNDEDNESS}/human_label/bob`,
      `${GROUNDEDNESS}/human_label/cy`,
      `${GROUNDEDNESS}/human_label/dan`,
    ]);
    const records: Record<string, unknown>[] = [];
    for await (const record of runResultRecords(db, exported)) records.push(record);
    const row2 = records.find((record) => record.request_id === "row-2");
    expect(row2).toMatchObject({
      [`${GROUNDEDNESS}/human_label`]: "yes",
      [`${GROUNDEDNESS}/human_label/ann`]: "yes",
      [`${GROUNDEDNESS}/human_label/bob`]: "no",
      [`${GROUNDEDNESS}/human_label/cy`]: null,
    });
  });

  it("the people-differ filter lists the rows where labels differ, and the drill-down's place among them", async () => {
    const runId = await seedRun(db, datasetId, "judge 2", [{ rowNumber: 1, metric: GROUNDEDNESS, rating: "yes" }]);
    const run = { id: runId, datasetId };
    const query = parseRunRowQuery({ filter: "people-differ" });
    const page = await listRunRows(db, run, query);
    expect(page.items.map((item) => item.rowNumber)).toEqual([1, 2]);
    const onFaithfulness = await listRunRows(
      db,
      run,
      parseRunRowQuery({ filter: "people-differ", metric: FAITHFULNESS }),
    );
    expect(onFaithfulness.items.map((item) => item.rowNumber)).toEqual([1, 2]);
    const place = await getRunRowPlace(db, run, { id: rows.get(2) ?? "", rowNumber: 2 }, query);
    expect(place.position).toEqual({ index: 2, total: 2 });
    expect(place.neighbours.previousId).toBe(rows.get(1));
    // In another order too (the sorted place reads the same filter in SQL).
    const sorted = parseRunRowQuery({ filter: "people-differ", sort: "requestId", dir: "desc" });
    const sortedPlace = await getRunRowPlace(db, run, { id: rows.get(2) ?? "", rowNumber: 2 }, sorted);
    expect(sortedPlace.position).toEqual({ index: 1, total: 2 });
    expect(sortedPlace.neighbours.nextId).toBe(rows.get(1));
  });
});

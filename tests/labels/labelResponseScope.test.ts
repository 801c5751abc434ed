import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import { sqlOf, type Db } from "@/lib/db/client";
import { getRowLabelsOnRun, readRunLabelsInRowRange } from "@/lib/db/labels/labelQueries";
import { labelBulkTables } from "@/lib/db/labels/labelWrites";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { importLabelFile } from "@/lib/labels/labelImport";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun, type SeedVerdict } from "./seedRuns";

// Which labels a run counts, on a dataset with its own responses and a run that generated others:
// a label records the response's hash only when its metric reads the response, and it is left out
// of a run only where that run judged the row (done) on a different response.

const CORRECTNESS = "response/llm_judged/correctness";
const SUFFICIENCY = "retrieval/llm_judged/context_sufficiency";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A run that generated its own answers (Generation rows with their hashes) and judged them as `verdicts` say. */
async function seedGeneratedRun(
  db: Db,
  datasetId: string,
  verdicts: SeedVerdict[],
  generations: Map<string, string | null>,
): Promise<string> {
  const runId = await seedRun(db, datasetId, "generated", verdicts);
  const sql = sqlOf(db);
  await sql.run(`UPDATE "Run" SET "generationModel" = 'gen-model' WHERE "id" = ?`, [runId]);
  for (const [rowId, response] of generations) {
    await sql.run(
      `INSERT INTO "Generation" ("id", "runId", "rowId", "status", "response", "responseHash", "errorMessage", "model")
       VALUES (?, ?, ?, ?, ?, ?, ?, 'gen-model')`,
      [
        randomUUID(),
        runId,
        rowId,
        response === null ? "error" : "done",
        response,
        response === null ? null : sha256(response),
        response === null ? "the model failed" : null,
      ],
    );
  }
  return runId;
}

describe("labels and the response they judged", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let rows: Map<number, string>;
  let datasetRunId: string;
  let generatedRunId: string;
  const both = [CORRECTNESS, SUFFICIENCY];

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(
      db,
      [1, 2, 3, 4].map((n) => ({
        request_id: `row-${n}`,
        request: `Question ${n}?`,
        response: `The dataset's answer ${n}.`,
        expected_response: `Answer ${n}.`,
        retrieved_context: [{ content: `Context ${n}.`, doc_uri: `doc${n}` }],
      })),
    );
    rows = await rowIdsByNumber(db, datasetId);
    const judged = (rowNumber: number, metric: string, extra: Partial<SeedVerdict> = {}): SeedVerdict => ({
      rowNumber,
      metric,
      rating: "yes",
      ...extra,
    });
    datasetRunId = await seedRun(
      db,
      datasetId,
      "dataset",
      [1, 2, 3, 4].flatMap((n) => both.map((metric) => judged(n, metric))),
    );
    // The generated run judged row 1 on both metrics; skipped row 2, left row 3 pending; row 4's generation failed.
    generatedRunId = await seedGeneratedRun(
      db,
      datasetId,
      [
        ...both.map((metric) => judged(1, metric)),
        judged(2, CORRECTNESS, { status: "skipped", rating: null }),
        judged(3, CORRECTNESS, { status: "pending", rating: null }),
        judged(4, CORRECTNESS, { status: "error", rating: null }),
      ],
      new Map([
        [rows.get(1)!, "Generated 1."],
        [rows.get(2)!, "Generated 2."],
        [rows.get(3)!, "Generated 3."],
        [rows.get(4)!, null],
      ]),
    );
    // Every label given on the dataset's responses: "no" where the judges said yes.
    for (const n of [1, 2, 3, 4]) {
      for (const metric of both) {
        const saved = await saveRowLabel(db, {
          datasetId,
          rowId: rows.get(n)!,
          metric,
          value: "no",
          labelledBy: null,
          runId: datasetRunId,
        });
        expect(saved).toMatchObject({ ok: true });
      }
    }
  }, 60_000);
  afterAll(async () => cleanup());

  const agreementOn = async (runId: string, metric: string) =>
    (await getRunAgreement(db, { id: runId, datasetId })).find((row) => row.metric === metric);

  it("stores no hash on a label whose metric does not read the response, and counts it on the generated run", async () => {
    const label = await db.humanLabel.findFirstOrThrow({ where: { rowId: rows.get(1)!, metric: SUFFICIENCY } });
    expect(label.responseHash).toBeNull();
    const correctness = await db.humanLabel.findFirstOrThrow({ where: { rowId: rows.get(1)!, metric: CORRECTNESS } });
    expect(correctness.responseHash).toBe(sha256("The dataset's answer 1."));
    expect(await agreementOn(generatedRunId, SUFFICIENCY)).toMatchObject({
      labelled: 1,
      otherResponse: 0,
      confusion: { yesNo: 1 },
    });
    expect((await getRowLabelsOnRun(db, generatedRunId, rows.get(1)!)).map((l) => [l.metric, l.otherResponse])).toEqual(
      [
        [CORRECTNESS, true],
        [SUFFICIENCY, false],
      ],
    );
    const exported = await readRunLabelsInRowRange(db, { id: generatedRunId, datasetId }, 0, 1);
    expect(exported.map((l) => l.metric)).toEqual([SUFFICIENCY]);
    const queue = await getLabellingQueue(db, { id: generatedRunId }, SUFFICIENCY, { target: 10 });
    if ("error" in queue) throw new Error(queue.error);
    expect(queue.otherResponse).toBe(0);
  });

  it("an upload's label on such a metric stores no hash either", () => {
    const tables = labelBulkTables(
      datasetId,
      [
        {
          rowId: "new-row",
          responseHash: sha256("x"),
          entries: [
            { metric: SUFFICIENCY, chunkPosition: -1, value: { kind: "rating", rating: "yes" } },
            { metric: CORRECTNESS, chunkPosition: -1, value: { kind: "rating", rating: "yes" } },
          ],
        },
      ],
      { labelledBy: null, source: "upload" },
    );
    const labels = tables.find((table) => table.table === "HumanLabel")!;
    const hashAt = labels.columns.indexOf("responseHash");
    expect(labels.rows.map((row) => [row[3], row[hashAt]])).toEqual([
      [SUFFICIENCY, null],
      [CORRECTNESS, sha256("x")],
    ]);
  });

  it("leaves out only labels on rows the run judged: not skipped, pending or failed ones", async () => {
    // Row 1 judged on another response: left out. Rows 2 and 3 not judged, row 4's generation failed: not left out.
    expect(await agreementOn(generatedRunId, CORRECTNESS)).toMatchObject({
      labelled: 0,
      otherResponse: 1,
      unjudged: 2,
      errors: 1,
    });
    // The run judged no context sufficiency on rows 2-4: unjudged, never "given on another response".
    expect(await agreementOn(generatedRunId, SUFFICIENCY)).toMatchObject({
      labelled: 1,
      otherResponse: 0,
      unjudged: 3,
    });
  });

  it("never pairs a label without a hash with a generation that failed", async () => {
    await db.humanLabel.updateMany({
      where: { rowId: rows.get(4)!, metric: CORRECTNESS },
      data: { responseHash: null },
    });
    expect(await agreementOn(generatedRunId, CORRECTNESS)).toMatchObject({ labelled: 0, errors: 1 });
  });

  it("re-importing an unchanged export leaves a label given on the generated run where it was; a changed one takes the dataset's response", async () => {
    const rowId = rows.get(1)!;
    expect(
      await saveRowLabel(db, {
        datasetId,
        rowId,
        metric: CORRECTNESS,
        value: "yes",
        labelledBy: null,
        runId: generatedRunId,
      }),
    ).toMatchObject({ ok: true, changed: true });
    const before = await db.humanLabel.findFirstOrThrow({ where: { rowId, metric: CORRECTNESS } });
    expect(before.responseHash).toBe(sha256("Generated 1."));
    let file = "";
    for await (const piece of labelFilePieces(db, datasetId, "csv")) file += piece;
    const again = await importLabelFile(
      db,
      datasetId,
      (async function* () {
        yield file;
      })(),
      "csv",
      { importedBy: null },
    );
    expect(again).toMatchObject({ ok: true });
    const after = await db.humanLabel.findFirstOrThrow({ where: { rowId, metric: CORRECTNESS } });
    expect(after).toMatchObject({ responseHash: sha256("Generated 1."), revision: before.revision });
    expect(await agreementOn(generatedRunId, CORRECTNESS)).toMatchObject({ labelled: 1, otherResponse: 0 });

    const changed = "request_id,metric,label\nrow-1,correctness,no\nrow-2,context_sufficiency,yes\n";
    const result = await importLabelFile(
      db,
      datasetId,
      (async function* () {
        yield changed;
      })(),
      "csv",
      {
        importedBy: null,
      },
    );
    expect(result).toMatchObject({ ok: true, changed: 2 });
    expect(await db.humanLabel.findFirstOrThrow({ where: { rowId, metric: CORRECTNESS } })).toMatchObject({
      rating: "no",
      responseHash: sha256("The dataset's answer 1."),
    });
    expect(await db.humanLabel.findFirstOrThrow({ where: { rowId: rows.get(2)!, metric: SUFFICIENCY } })).toMatchObject(
      { rating: "yes", responseHash: null },
    );
  });

  it("refuses a label saved on a run of another dataset, saying so", async () => {
    const otherDataset = await importRows(db, [{ request_id: "o-1", request: "Q?", response: "A." }]);
    const otherRun = await seedRun(db, otherDataset, "other", []);
    const saved = await saveRowLabel(db, {
      datasetId,
      rowId: rows.get(2)!,
      metric: CORRECTNESS,
      value: "yes",
      labelledBy: null,
      runId: otherRun,
    });
    expect(saved).toEqual({ ok: false, error: expect.stringContaining("is not a run of this dataset") });
    expect(await db.humanLabelRevision.count({ where: { runId: otherRun } })).toBe(0);
  });
});

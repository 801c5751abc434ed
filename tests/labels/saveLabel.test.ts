import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { getRowLabels } from "@/lib/db/labels/labelQueries";
import { labelBulkTables } from "@/lib/db/labels/labelWrites";
import { parseHumanLabels } from "@/lib/ingest/humanLabels";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

describe("labels from the drill-down and from an upload", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(3, 2));
    rows = await rowIdsByNumber(db, datasetId);
  }, 60_000);
  afterAll(async () => cleanup());

  it("saves, changes and clears a label by short name, checking the kind and the chunk", async () => {
    const rowId = rows.get(1) ?? "";
    const base = { datasetId, rowId, labelledBy: "u1" };
    expect(await saveRowLabel(db, { ...base, metric: "groundedness", value: "yes" })).toEqual({
      ok: true,
      changed: true,
    });
    expect(await saveRowLabel(db, { ...base, metric: "groundedness", value: "yes" })).toEqual({
      ok: true,
      changed: false,
    });
    expect(await saveRowLabel(db, { ...base, metric: "groundedness", value: 0.3 })).toEqual({
      ok: false,
      error: 'expected "yes" or "no"',
    });
    expect(await saveRowLabel(db, { ...base, metric: "chunk_relevance", value: "no" })).toMatchObject({ ok: false });
    expect(await saveRowLabel(db, { ...base, metric: "chunk_relevance", chunkPosition: 1, value: "no" })).toEqual({
      ok: true,
      changed: true,
    });
    expect(await saveRowLabel(db, { ...base, metric: "chunk_relevance", chunkPosition: 2, value: "no" })).toMatchObject(
      {
        ok: false,
        error: expect.stringContaining("2 retrieved chunks"),
      },
    );
    expect(await saveRowLabel(db, { ...base, metric: "groundedness", value: null })).toEqual({
      ok: true,
      changed: true,
    });
    expect((await getRowLabels(db, rowId)).map((label) => [label.metric, label.chunkPosition, label.rating])).toEqual([
      ["retrieval/llm_judged/chunk_relevance", 1, "no"],
    ]);
  });

  it("the upload's parsed labels go in with their rows through the sink's bulk insert", async () => {
    // What the dataset sink does once validateRecord returns the row's humanLabels: one transaction for rows and labels.
    const { entries, issues } = parseHumanLabels(
      { safety: "no", chunk_relevance: ["yes", null] },
      { row: 1, line: 2, format: "json" },
      2,
    );
    expect(issues).toEqual([]);
    const rowId = rows.get(2) ?? "";
    await sqlOf(db).bulkInsert(
      labelBulkTables(datasetId, [{ rowId, entries }], { labelledBy: null, source: "upload" }),
    );
    expect(await getRowLabels(db, rowId)).toMatchObject([
      { metric: "response/llm_judged/safety", chunkPosition: -1, rating: "no", source: "upload", revision: 1 },
      { metric: "retrieval/llm_judged/chunk_relevance", chunkPosition: 0, rating: "yes", revision: 1 },
    ]);
  });
});

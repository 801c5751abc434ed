import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRowLabelHistory, getRowLabels } from "@/lib/db/labels/labelQueries";
import { clearLabel, writeLabels } from "@/lib/db/labels/labelWrites";
import { importLabelFile } from "@/lib/labels/labelImport";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

// People label the same row at the same moment, and a label file is imported
// while they do. Each change numbers its revision from the history it reads
// and writes both in one transaction; on PostgreSQL two such transactions
// conflict and one runs again whole, so every change still gets its own
// revision and the current label is the last one's.

const GROUNDEDNESS = "response/llm_judged/groundedness";

const once = (text: string) =>
  (async function* () {
    yield text;
  })();

describe("labels written at the same moment", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(30, 1));
    rows = await rowIdsByNumber(db, datasetId);
  }, 60_000);
  afterAll(async () => cleanup());

  /** The row's revisions of a metric, oldest first, and its current label. */
  async function historyOf(rowId: string) {
    const revisions = (await getRowLabelHistory(db, rowId))
      .filter((revision) => revision.metric === GROUNDEDNESS)
      .sort((a, b) => a.revision - b.revision);
    const [current] = (await getRowLabels(db, rowId)).filter((label) => label.metric === GROUNDEDNESS);
    return { revisions, current };
  }

  it("gives every concurrent change to one label its own revision, the current label being the last", async () => {
    const rowId = rows.get(1) ?? "";
    const people = Array.from({ length: 8 }, (_, i) => `person-${i}`);
    const results = await Promise.all(
      people.map((labelledBy, i) =>
        saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value: i % 2 ? "no" : "yes", labelledBy }),
      ),
    );
    expect(results).toEqual(people.map(() => ({ ok: true, changed: true })));
    const { revisions, current } = await historyOf(rowId);
    expect(revisions.map((revision) => revision.revision)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(revisions.map((revision) => revision.labelledBy))).toEqual(new Set(people));
    const last = revisions[revisions.length - 1];
    expect(current).toMatchObject({ revision: 8, labelledBy: last.labelledBy, rating: last.rating });
  });

  it("orders a clear among concurrent changes in the history like any other change", async () => {
    const rowId = rows.get(2) ?? "";
    const author = (labelledBy: string) => ({ labelledBy, source: "ui" as const });
    const label = (rating: "yes" | "no") => [
      { rowId, entries: [{ metric: GROUNDEDNESS, chunkPosition: -1, value: { kind: "rating" as const, rating } }] },
    ];
    await writeLabels(db, datasetId, label("yes"), author("first"));
    const [, cleared] = await Promise.all([
      writeLabels(db, datasetId, label("no"), author("second")),
      clearLabel(db, { datasetId, rowId, metric: GROUNDEDNESS, chunkPosition: -1 }, author("clearer")),
      writeLabels(db, datasetId, label("yes"), author("third")),
    ]);
    expect(cleared).toBe(true);
    const { revisions, current } = await historyOf(rowId);
    expect(revisions.map((revision) => revision.revision)).toEqual([1, 2, 3, 4]);
    const last = revisions[3];
    if (last.action === "cleared") expect(current).toBeUndefined();
    else expect(current).toMatchObject({ revision: 4, labelledBy: last.labelledBy, rating: last.rating });
  });

  it("promotes a label file while people label the same rows: nothing lost, no revision given twice", async () => {
    const numbers = Array.from({ length: 20 }, (_, i) => i + 10);
    const file = numbers.map((n) => JSON.stringify({ request_id: `row-${n}`, metric: "groundedness", label: "no" }));
    const [imported, ...saved] = await Promise.all([
      importLabelFile(db, datasetId, once(`${file.join("\n")}\n`), "jsonl", { importedBy: null }),
      ...numbers.map((n) =>
        saveRowLabel(db, {
          datasetId,
          rowId: rows.get(n) ?? "",
          metric: "groundedness",
          value: "yes",
          labelledBy: "ui",
        }),
      ),
    ]);
    expect(imported).toMatchObject({ ok: true, records: 20, changed: 20 });
    expect(saved.every((result) => result.ok && result.changed)).toBe(true);
    for (const n of numbers) {
      const { revisions, current } = await historyOf(rows.get(n) ?? "");
      expect(revisions.map((revision) => [revision.revision, revision.source].join(" ")).sort()).toEqual(
        revisions[0].source === "import" ? ["1 import", "2 ui"] : ["1 ui", "2 import"],
      );
      expect(current).toMatchObject({ revision: 2, source: revisions[1].source, rating: revisions[1].rating });
    }
  });
});

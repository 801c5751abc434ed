import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRowLabelHistory, getRowLabels } from "@/lib/db/labels/labelQueries";
import { sqlOf } from "@/lib/db/client";
import { clearLabel, writeLabels } from "@/lib/db/labels/labelWrites";
import { importLabelFile } from "@/lib/labels/labelImport";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

// People label the same row at the same moment, and a label file is imported
// while they do. Each change numbers its revision from the history it reads
// and writes both in one transaction, with the key's gold label; on PostgreSQL
// two such transactions conflict and one runs again whole, so every change
// still gets its own revision, every person keeps their own label, and the
// gold label is what they say together (one person's label: the last one's).

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
    const people = await sqlOf(db).all<{ labeller: string; rating: string }>(
      `SELECT "labeller", "rating" FROM "PersonLabel" WHERE "rowId" = ? AND "metric" = ? ORDER BY "labeller"`,
      [rowId, GROUNDEDNESS],
    );
    return { revisions, current, people };
  }

  it("gives every concurrent label of one key its own revision, keeps each person's, and the majority's as gold", async () => {
    const rowId = rows.get(1) ?? "";
    const people = Array.from({ length: 9 }, (_, i) => `person-${i}`);
    // Five say yes, four say no.
    const results = await Promise.all(
      people.map((labelledBy, i) =>
        saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value: i % 2 ? "no" : "yes", labelledBy }),
      ),
    );
    expect(results).toEqual(people.map(() => ({ ok: true, changed: true })));
    const { revisions, current, people: labels } = await historyOf(rowId);
    expect(revisions.map((revision) => revision.revision)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(revisions.map((revision) => revision.labelledBy))).toEqual(new Set(people));
    expect(labels.map((label) => [label.labeller, label.rating])).toEqual(
      people.map((person, i) => [person, i % 2 ? "no" : "yes"]),
    );
    expect(current).toMatchObject({ revision: 9, rating: "yes" });
    // The gold label names one who gave it (the latest by when they labelled), never a dissenter.
    expect(people.filter((_, i) => i % 2 === 0)).toContain(current.labelledBy);
  });

  it("one person's concurrent changes of their own label: the last one is current", async () => {
    const rowId = rows.get(3) ?? "";
    const values = ["yes", "no", "yes", "no", "no"] as const;
    await Promise.all(
      values.map((value) => saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value, labelledBy: "same" })),
    );
    const { revisions, current, people } = await historyOf(rowId);
    const changed = revisions.map((revision) => revision.revision);
    expect(changed).toEqual(changed.map((_, i) => i + 1));
    const last = revisions[revisions.length - 1];
    expect(people).toEqual([{ labeller: "same", rating: last.rating }]);
    expect(current).toMatchObject({ revision: last.revision, labelledBy: "same", rating: last.rating });
  });

  it("orders a clear among concurrent changes in the history like any other change", async () => {
    const rowId = rows.get(2) ?? "";
    const author = (labelledBy: string) => ({ labelledBy, source: "ui" as const });
    const label = (rating: "yes" | "no") => [
      { rowId, entries: [{ metric: GROUNDEDNESS, chunkPosition: -1, value: { kind: "rating" as const, rating } }] },
    ];
    await writeLabels(db, datasetId, label("yes"), author("first"));
    await writeLabels(db, datasetId, label("yes"), author("second"));
    const [, cleared] = await Promise.all([
      writeLabels(db, datasetId, label("no"), author("third")),
      clearLabel(db, { datasetId, rowId, metric: GROUNDEDNESS, chunkPosition: -1 }, author("first")),
      writeLabels(db, datasetId, label("no"), author("fourth")),
    ]);
    expect(cleared).toBe(true);
    // Someone who gave no label has none to clear.
    expect(await clearLabel(db, { datasetId, rowId, metric: GROUNDEDNESS, chunkPosition: -1 }, author("first"))).toBe(
      false,
    );
    const { revisions, current, people } = await historyOf(rowId);
    expect(revisions.map((revision) => revision.revision)).toEqual([1, 2, 3, 4, 5]);
    expect(revisions.filter((revision) => revision.action === "cleared").map((r) => r.labelledBy)).toEqual(["first"]);
    expect(people.map((person) => person.labeller)).toEqual(["fourth", "second", "third"]);
    // Two of the three left say no.
    expect(current).toMatchObject({ revision: 5, rating: "no" });
  });

  it("a tie between people leaves the key without a gold label until someone breaks it", async () => {
    const rowId = rows.get(4) ?? "";
    await saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value: "yes", labelledBy: "ann" });
    await saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value: "no", labelledBy: "bob" });
    expect((await historyOf(rowId)).current).toBeUndefined();
    await saveRowLabel(db, { datasetId, rowId, metric: "groundedness", value: "no", labelledBy: "cy" });
    expect((await historyOf(rowId)).current).toMatchObject({ rating: "no", labelledBy: "cy", revision: 3 });
    await clearLabel(
      db,
      { datasetId, rowId, metric: GROUNDEDNESS, chunkPosition: -1 },
      { labelledBy: "cy", source: "ui" },
    );
    expect((await historyOf(rowId)).current).toBeUndefined();
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
          // The same (unnamed) person as the file's records, so theirs is one label changed twice.
          labelledBy: null,
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

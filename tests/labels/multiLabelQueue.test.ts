// The labelling queue asking for several labels per row: a row is done at N people's labels, each labeller
// is offered what they have not labelled, and the last slot of a row is held for the one who opened it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { saveLabelQueueSetting } from "@/lib/db/labels/labelQueueSettings";
import { reserveLastSlot } from "@/lib/db/labels/labelReservations";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { claimQueueSlot } from "@/lib/labels/queueSlots";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun } from "./seedRuns";

const GROUNDEDNESS = "response/llm_judged/groundedness";

describe("a queue for several labellers", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(6, 1));
    rows = await rowIdsByNumber(db, datasetId);
    runId = await seedRun(
      db,
      datasetId,
      "judge",
      [1, 2, 3, 4, 5, 6].map((rowNumber) => ({
        rowNumber,
        metric: GROUNDEDNESS,
        rating: rowNumber % 2 ? ("yes" as const) : ("no" as const),
      })),
    );
    await saveLabelQueueSetting(db, { datasetId, metric: GROUNDEDNESS }, { labelsPerRow: 2, hideJudge: true });
  }, 60_000);
  afterAll(async () => cleanup());

  const queueFor = async (viewer: string) => {
    const queue = await getLabellingQueue(db, { id: runId }, GROUNDEDNESS, { viewer, labelsPerRow: 2, target: 6 });
    if ("error" in queue) throw new Error(queue.error);
    return queue;
  };
  const label = (rowNumber: number, labelledBy: string, value: "yes" | "no") =>
    saveRowLabel(db, { datasetId, rowId: rows.get(rowNumber) ?? "", metric: "groundedness", value, labelledBy });

  it("offers each labeller the rows they have not labelled, and counts a row done at two labels", async () => {
    await label(1, "ann", "yes");
    await label(2, "ann", "no");
    await label(2, "bob", "no");
    const ann = await queueFor("ann");
    expect(ann.next.map((u) => u.rowNumber).sort()).toEqual([3, 4, 5, 6]);
    expect(ann).toMatchObject({ labelled: 1, yours: 2, labelsPerRow: 2 });
    const bob = await queueFor("bob");
    // Row 1 has one label (ann's): bob is offered it; row 2 is done.
    expect(bob.next.map((u) => u.rowNumber).sort()).toEqual([1, 3, 4, 5, 6]);
    expect(bob.yours).toBe(1);
  });

  it("holds a row's last slot for the labeller who opened it, and offers it to no one else meanwhile", async () => {
    const key = { datasetId, rowId: rows.get(1) ?? "", metric: GROUNDEDNESS };
    expect(await claimQueueSlot(db, key, "bob")).toBe("claimed");
    // Claiming again renews bob's own hold; cy is told it is held.
    expect(await claimQueueSlot(db, key, "bob")).toBe("claimed");
    expect(await claimQueueSlot(db, key, "cy")).toBe("held");
    const cy = await queueFor("cy");
    expect(cy.next.map((u) => u.rowNumber)).not.toContain(1);
    expect(cy.held).toBe(1);
    // Ann labelled row 1: nothing to claim for her.
    expect(await claimQueueSlot(db, key, "ann")).toBe("none");
    // A row that needs two more labels holds no slot.
    expect(await claimQueueSlot(db, { ...key, rowId: rows.get(3) ?? "" }, "cy")).toBe("none");
  });

  it("two labellers claiming the same last slot at once: exactly one holds it", async () => {
    await label(5, "ann", "yes");
    const key = { datasetId, rowId: rows.get(5) ?? "", metric: GROUNDEDNESS, chunkPosition: -1 };
    const claims = await Promise.all(["dan", "eve", "fay", "gus"].map((who) => reserveLastSlot(db, key, who)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});

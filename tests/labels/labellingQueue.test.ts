import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { allocateTarget, createQueueSelection, type QueueUnit } from "@/lib/labels/queueSelection";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun } from "./seedRuns";

function units(yes: number, no: number, labelled: Set<number> = new Set()): QueueUnit[] {
  return Array.from({ length: yes + no }, (_, i) => ({
    rowId: `r${i + 1}`,
    rowNumber: i + 1,
    chunkPosition: -1,
    // The "no"s are the last rows, so a queue in row order would never reach them.
    verdict: i < yes ? "yes" : "no",
    labelled: labelled.has(i + 1),
  }));
}

function queueOf(all: QueueUnit[], target: number, seed = 7) {
  const selection = createQueueSelection({ seed, target });
  all.forEach((unit) => selection.add(unit));
  return selection.finish();
}

describe("labelling queue selection", () => {
  it("splits the target evenly between verdicts, a small stratum giving the rest to the other", () => {
    expect(allocateTarget(40, { yes: 950, no: 50 })).toEqual({ yes: 20, no: 20 });
    expect(allocateTarget(40, { yes: 95, no: 5 })).toEqual({ yes: 35, no: 5 });
    // Equal sizes: the first in order (no) takes the odd one: ceil(7/2) = 4.
    expect(allocateTarget(7, { yes: 10, no: 10 })).toEqual({ no: 4, yes: 3 });
    expect(allocateTarget(50, { yes: 3, no: 2 })).toEqual({ yes: 3, no: 2 });
  });

  it("a judge that says yes 95 % of the time still gets every one of its no's checked", () => {
    const queue = queueOf(units(95, 5), 20);
    expect(queue.next).toHaveLength(20);
    expect(queue.next.filter((unit) => unit.verdict === "no").map((unit) => unit.rowNumber)).toEqual(
      expect.arrayContaining([96, 97, 98, 99, 100]),
    );
    expect(queue).toMatchObject({ labelled: 0, target: 20 });
    expect(queue.strata).toEqual([
      { verdict: "no", available: 5, labelled: 0, allocated: 5 },
      { verdict: "yes", available: 95, labelled: 0, allocated: 15 },
    ]);
  });

  it("is the same for the same seed, differs for another, and labelling one row leaves the rest of the queue as it was", () => {
    const first = queueOf(units(60, 40), 10);
    expect(queueOf(units(60, 40), 10).next).toEqual(first.next);
    expect(queueOf(units(60, 40), 10, 8).next.map((u) => u.rowNumber)).not.toEqual(first.next.map((u) => u.rowNumber));
    const done = first.next[0];
    const after = queueOf(units(60, 40, new Set([done.rowNumber])), 10);
    expect(after.labelled).toBe(1);
    expect(after.next.map((u) => u.rowNumber).sort((a, b) => a - b)).toEqual(
      first.next
        .slice(1)
        .map((u) => u.rowNumber)
        .sort((a, b) => a - b),
    );
  });

  it("skips labelled rows and counts at most each stratum's share toward the target", () => {
    // 12 yes rows labelled, but the yes share is 5: progress counts 5, and only no's remain to label.
    const labelled = new Set(Array.from({ length: 12 }, (_, i) => i + 1));
    const queue = queueOf(units(30, 30, labelled), 10);
    expect(queue.labelled).toBe(5);
    expect(queue.next.every((unit) => unit.verdict === "no" && !unit.labelled)).toBe(true);
    expect(queue.next).toHaveLength(5);
  });
});

describe("labelling queue from a run", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runId: string;
  const G = "response/llm_judged/groundedness";
  const CR = "retrieval/llm_judged/chunk_relevance";

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // More rows than a query may bind values, so a list sized by the data would fail the guard.
    datasetId = await importRows(db, syntheticRows(150, 3));
    runId = await seedRun(db, datasetId, "A", [
      ...Array.from({ length: 150 }, (_, i) => ({
        rowNumber: i + 1,
        metric: G,
        rating: i >= 147 ? ("no" as const) : ("yes" as const),
        status: i === 0 ? ("error" as const) : ("done" as const),
      })),
      { rowNumber: 1, metric: CR, chunks: ["yes", "no", "error"] },
      { rowNumber: 2, metric: CR, chunks: ["yes", "yes", "no"] },
    ]);
    const rows = await rowIdsByNumber(db, datasetId);
    await writeLabels(
      db,
      datasetId,
      [
        {
          rowId: rows.get(2) ?? "",
          entries: [{ metric: G, chunkPosition: -1, value: { kind: "rating", rating: "yes" } }],
        },
        {
          rowId: rows.get(1) ?? "",
          entries: [{ metric: CR, chunkPosition: 1, value: { kind: "rating", rating: "no" } }],
        },
      ],
      { labelledBy: "reviewer-1", source: "ui" },
    );
  }, 60_000);
  afterAll(async () => cleanup());

  it("stratifies the run's verdicts (errors left out), skips labelled rows and reports progress", async () => {
    const queue = await getLabellingQueue(db, { id: runId }, "groundedness", { target: 10 });
    if ("error" in queue) throw new Error(queue.error);
    // 149 judged: 146 yes (row 1 errored), 3 no. Allocation: no 3, yes 7; row 2 (yes) already labelled.
    expect(queue.strata).toEqual([
      { verdict: "no", available: 3, labelled: 0, allocated: 3 },
      { verdict: "yes", available: 146, labelled: 1, allocated: 7 },
    ]);
    expect(queue).toMatchObject({ labelled: 1, target: 10 });
    expect(queue.next).toHaveLength(9);
    expect(
      queue.next
        .filter((unit) => unit.verdict === "no")
        .map((unit) => unit.rowNumber)
        .sort(),
    ).toEqual([148, 149, 150]);
    expect(queue.next.some((unit) => unit.rowNumber === 1 || unit.rowNumber === 2)).toBe(false);
  });

  it("queues chunks for a per-chunk judge, skipping errored and labelled chunks", async () => {
    const queue = await getLabellingQueue(db, { id: runId }, "chunk_relevance", { target: 10 });
    if ("error" in queue) throw new Error(queue.error);
    const keys = queue.next.map((unit) => `${unit.rowNumber}:${unit.chunkPosition}`).sort();
    expect(keys).toEqual(["1:0", "2:0", "2:1", "2:2"]);
    expect(queue.labelled).toBe(1);
  });

  it("refuses a metric that takes no label", async () => {
    expect(await getLabellingQueue(db, { id: runId }, "document_recall")).toMatchObject({
      error: expect.stringContaining("takes no human label"),
    });
  });
});

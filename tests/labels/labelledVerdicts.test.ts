import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLabelledVerdicts } from "@/lib/db/alignments/labelledVerdicts";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { syntheticRows } from "../support/syntheticRows";
import { openDataset, type StoredDataset } from "../support/servedDataset";
import { rowIdsByNumber, seedRun } from "./seedRuns";

/**
 * What an alignment starts from: a judge's labels with a run's verdict beside each, counted as the
 * agreement panel counts them. Six rows: labels on rows 1–5 (row 6 unlabelled); the run says yes on
 * 1–3, no on 4, errors on 5; chunk labels on row 1.
 */
const G = "response/llm_judged/groundedness";
const CR = "retrieval/llm_judged/chunk_relevance";

describe("a judge's labels with a run's verdicts, for an alignment", () => {
  let world: StoredDataset & { runId: string; rows: Map<number, string> };

  beforeAll(async () => {
    const dataset = await openDataset(syntheticRows(6, 2));
    const { db, datasetId } = dataset;
    const rows = await rowIdsByNumber(db, datasetId);
    const labels: Record<number, "yes" | "no"> = { 1: "yes", 2: "no", 3: "yes", 4: "no", 5: "yes" };
    await writeLabels(
      db,
      datasetId,
      [...rows]
        .filter(([rowNumber]) => labels[rowNumber])
        .map(([rowNumber, rowId]) => ({
          rowId,
          entries: [
            { metric: G, chunkPosition: -1, value: { kind: "rating" as const, rating: labels[rowNumber] } },
            ...(rowNumber === 1
              ? [{ metric: CR, chunkPosition: 1, value: { kind: "rating" as const, rating: "no" as const } }]
              : []),
          ],
        })),
      { labelledBy: null, source: "upload" },
    );
    const runId = await seedRun(db, datasetId, "base", [
      ...[1, 2, 3].map((rowNumber) => ({ rowNumber, metric: G, rating: "yes" as const })),
      { rowNumber: 4, metric: G, rating: "no" },
      { rowNumber: 5, metric: G, status: "error" },
      { rowNumber: 1, metric: CR, score: 0.5, chunks: ["yes", "yes"] },
    ]);
    world = { ...dataset, runId, rows };
  }, 60_000);
  afterAll(async () => world.cleanup());

  it("gives each whole-row label its key, label and the run's verdict (null where the run errored)", async () => {
    const { db, datasetId, runId, rows } = world;
    const read = await readLabelledVerdicts(db, { id: runId, datasetId }, G);
    const byRow = new Map(read.map((r) => [r.rowId, r]));
    expect(read).toHaveLength(5);
    expect(byRow.get(rows.get(2) ?? "")).toMatchObject({
      key: rows.get(2),
      label: "no",
      verdict: "yes",
      chunkPosition: -1,
    });
    expect(byRow.get(rows.get(4) ?? "")).toMatchObject({ label: "no", verdict: "no" });
    expect(byRow.get(rows.get(5) ?? "")).toMatchObject({ label: "yes", verdict: null });
  });

  it("keys a chunk's label by its row and chunk", async () => {
    const { db, datasetId, runId, rows } = world;
    expect(await readLabelledVerdicts(db, { id: runId, datasetId }, CR)).toEqual([
      { key: `${rows.get(1)}#1`, rowId: rows.get(1), chunkPosition: 1, label: "no", verdict: "yes" },
    ]);
  });
});

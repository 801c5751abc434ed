import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatherPlannerStatistics } from "@/lib/db/client";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import { listDisagreementRows } from "@/lib/db/labels/agreementRowQueries";
import { writeLabels, type RowLabels } from "@/lib/db/labels/labelWrites";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { mulberry32 } from "@/lib/stats";
import { syntheticRows } from "../support/syntheticRows";
import { openDataset, type StoredDataset } from "../support/servedDataset";
import { rowIdsByNumber, seedRun, type SeedVerdict } from "./seedRuns";

/**
 * The agreement reads the run page and the compare page make, on a 200-row dataset labelled on four metrics
 * (one per chunk, one scored) with two runs: each covers the whole dataset. How long they take at 1,000 labelled
 * rows is bench:ui's ("labelled 1k" pages), with its targets.
 */
const ROWS = 200;
const CHUNKS = 3;
const RATED = ["response/llm_judged/groundedness", "response/llm_judged/correctness", "response/llm_judged/safety"];
const CR = "retrieval/llm_judged/chunk_relevance";
const F = "response/llm_judged/faithfulness";

// Judgments as wide as real ones: the agreement join reads the judgment's row, rationale and all.
const RATIONALE = "The response states the retention period, which the second retrieved chunk supports. ".repeat(5);

function verdicts(seed: number): SeedVerdict[] {
  const random = mulberry32(seed);
  const yn = (pYes: number): "yes" | "no" => (random() < pYes ? "yes" : "no");
  return Array.from({ length: ROWS }, (_, i) => i + 1).flatMap((rowNumber): SeedVerdict[] => [
    ...RATED.map((metric) =>
      random() < 0.02
        ? { rowNumber, metric, status: "error" as const }
        : { rowNumber, metric, rating: yn(0.8), rationale: RATIONALE },
    ),
    { rowNumber, metric: CR, chunks: Array.from({ length: CHUNKS }, () => yn(0.6)) },
    { rowNumber, metric: F, score: Math.round(random() * 100) / 100, threshold: 0.5, rationale: RATIONALE },
  ]);
}

describe(`agreement reads over ${ROWS} rows with labels and two runs`, () => {
  let world: StoredDataset & { runA: string; runB: string };

  beforeAll(async () => {
    const dataset = await openDataset(syntheticRows(ROWS, CHUNKS));
    const { db, datasetId } = dataset;
    const random = mulberry32(99);
    const yn = () => (random() < 0.75 ? ("yes" as const) : ("no" as const));
    const labels: RowLabels[] = [...(await rowIdsByNumber(db, datasetId)).values()].map((rowId) => ({
      rowId,
      entries: [
        ...RATED.map((metric) => ({ metric, chunkPosition: -1, value: { kind: "rating" as const, rating: yn() } })),
        ...Array.from({ length: CHUNKS }, (_, position) => ({
          metric: CR,
          chunkPosition: position,
          value: { kind: "rating" as const, rating: yn() },
        })),
        { metric: F, chunkPosition: -1, value: { kind: "score" as const, score: Math.round(random() * 100) / 100 } },
      ],
    }));
    await writeLabels(db, datasetId, labels, { labelledBy: "timing", source: "import" });
    world = {
      ...dataset,
      runA: await seedRun(db, datasetId, "A", verdicts(1)),
      runB: await seedRun(db, datasetId, "B", verdicts(2)),
    };
    // Planner statistics, as a store has them once its writes are analyzed: on PostgreSQL, tables never analyzed
    // got plans 13 times slower here (getRunAgreement 863 ms, compareRunAgreement 1,780 ms; 67 and 159 ms after).
    await gatherPlannerStatistics(db);
  }, 120_000);
  afterAll(async () => world.cleanup());

  it("reads every labelled row and chunk, for one run and for two", async () => {
    const { db, datasetId, runA, runB } = world;
    const a = { id: runA, datasetId };
    const b = { id: runB, datasetId };
    const agreement = await getRunAgreement(db, a);
    expect(agreement).toHaveLength(5);
    for (const row of agreement) expect(row.labelled + row.errors).toBe(row.perChunk ? ROWS * CHUNKS : ROWS);
    const compared = await compareRunAgreement(db, a, b);
    expect(compared.every((row) => row.paired !== null)).toBe(true);
    const page = await listDisagreementRows(db, a, { q: "", sort: "rowNumber", dir: "asc", page: 1, pageSize: 50 });
    expect(page.total).toBeGreaterThan(0);
    const queue = await getLabellingQueue(db, a, "groundedness", { target: 100 });
    expect("error" in queue ? queue.error : queue.labelled).toBe(100);
  });
});

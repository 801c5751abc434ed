import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";
import { listFlips } from "@/lib/db/judgments/compareQueries";
import { pairedCandidateRowId } from "@/lib/db/judgments/rowPairing";
import { getFlipPlace } from "@/lib/db/runs/flipNavigation";
import { rowIdsByNumber } from "../labels/seedRuns";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

/**
 * Two CI builds' uploads: the same requests under the same ids, each build with its own responses, in a
 * different order. The judge says no to a response containing BAD.
 *   r1–r4: on both sides with the same request; the build's responses are BAD: four regressions.
 *   r5: the same id, another request: not paired.
 *   r6: only in the baseline's file; r7 only in the candidate's.
 */
const baselineRows = [1, 2, 3, 4, 5, 6].map((i) => ({
  request_id: `r${i}`,
  request: `question ${i}`,
  response: "fine",
}));
const candidateRows = [
  { request_id: "r7", request: "question 7", response: "fine" },
  { request_id: "r5", request: "question 5, reworded", response: "fine" },
  // The same request, given as one user message: it pairs with the plain-string request.
  { request_id: "r4", request: { messages: [{ role: "user", content: "question 4" }] }, response: "BAD" },
  ...[1, 2, 3].map((i) => ({ request_id: `r${i}`, request: `question ${i}`, response: "BAD" })),
];

describe("comparing runs on two datasets, paired by request", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let baseline: string;
  let candidate: string;
  let baselineDataset: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: (body) =>
        JSON.stringify({ rationale: "checked", rating: JSON.stringify(body.messages).includes("BAD") ? "no" : "yes" }),
    });
    baselineDataset = await importRows(db, baselineRows);
    const candidateDataset = await importRows(db, candidateRows);
    const judge = { provider: "openai", model: "judge" } as const;
    ({ runId: baseline } = await runToCompletion(
      db,
      { datasetId: baselineDataset, metrics: ["safety"], judge },
      server.url,
    ));
    ({ runId: candidate } = await runToCompletion(
      db,
      { datasetId: candidateDataset, metrics: ["safety"], judge },
      server.url,
    ));
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("says how the rows paired, and tests the delta on the paired rows only", async () => {
    const comparison = (await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity }))!;
    expect(comparison.sameDataset).toBe(false);
    expect(comparison.rowPairings?.[candidate]).toEqual({
      paired: 4,
      onlyBaseline: 1,
      onlyCandidate: 1,
      sameIdDifferentRequest: 1,
    });
    const delta = comparison.metrics[0].deltas[candidate];
    // Four rows yes → no: −100 points on the paired rows; the overall rates (6 yes of 6, 2 of 6) differ by less.
    expect(delta).toMatchObject({ pairs: 4, delta: -1, flips: { regressions: 4, improvements: 0 } });
    expect(delta.overallDelta).toBeCloseTo(2 / 6 - 1, 12);
    // Exact McNemar with b = 4, c = 0: p = 2 · (1/2)^4 = 0.125, not below 0.05.
    expect(delta.pValue).toBeCloseTo(0.125, 12);
    expect(delta.verdict).toBe("noise");
  });

  it("tests at the level asked: the same four regressions are real at alpha 0.2, with an 80% interval", async () => {
    const at = async (alpha: number) =>
      (await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity, alpha }))!.metrics[0].deltas[
        candidate
      ];
    const strict = await at(0.05);
    const loose = await at(0.2);
    expect(loose).toMatchObject({ verdict: "worse", pValue: strict.pValue });
    expect(loose.words).toBe("Real regression: \u2212100.0 points (McNemar p = 0.13)");
    // The narrower interval of the lower level, around the same difference. Every paired row flipped the same
    // way, so at both levels the interval that inverts McNemar's test reaches the observed −100 points, and
    // only its upper bound moves; at 80 % it excludes 0, as the test at 0.2 rejects.
    expect(strict.interval!.low).toBe(-1);
    expect(loose.interval!.low).toBe(-1);
    expect(loose.interval!.high).toBeLessThan(strict.interval!.high);
    expect(strict.interval!.high).toBeGreaterThan(0);
    expect(loose.interval!.high).toBeLessThan(0);
    await expect(compareRuns(db, [baseline, candidate], baseline, { alpha: 1 })).rejects.toThrow("alpha");
  });

  it("lists the flips on the baseline's rows, steps through them and finds each one's partner", async () => {
    const { items, total } = await listFlips(db, baseline, candidate, { offset: 0, limit: 10 });
    expect(total).toBe(4);
    expect(items.map((flip) => [flip.requestId, flip.baseline, flip.candidate])).toEqual([
      ["r1", "yes", "no"],
      ["r2", "yes", "no"],
      ["r3", "yes", "no"],
      ["r4", "yes", "no"],
    ]);
    const rows = await rowIdsByNumber(db, baselineDataset);
    expect(items[0].rowId).toBe(rows.get(1));
    const place = await getFlipPlace(db, baseline, candidate, {}, { rowId: items[1].rowId, metric: items[1].metric });
    expect(place).toMatchObject({
      position: 2,
      total: 4,
      previous: { rowId: items[0].rowId },
      next: { rowId: items[2].rowId },
    });
    const partner = await pairedCandidateRowId(db, items[3].rowId, candidate);
    const partnerRow = await db.datasetRow.findUniqueOrThrow({ where: { id: partner ?? "" } });
    expect(partnerRow).toMatchObject({ requestId: "r4", rowNumber: 3 });
    // r5's request differs: no partner.
    expect(await pairedCandidateRowId(db, rows.get(5) ?? "", candidate)).toBeNull();
    // On one dataset a row is its own partner.
    expect(await pairedCandidateRowId(db, rows.get(5) ?? "", baseline)).toBe(rows.get(5));
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import {
  createAlignment,
  decideAlignment,
  getAlignment,
  heldOutKeysOfEarlierAlignments,
  listAlignments,
  recordAlignmentComparison,
  recordAlignmentFailure,
  recordAlignmentProgress,
  claimAlignmentMeasurement,
  listAdoptedAlignments,
  type NewAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import { buildAlignedDefinition } from "@/lib/alignment/alignedDefinition";
import { deleteDatasetWithRuns } from "@/lib/db/datasets/datasetWrites";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const CORRECTNESS = "response/llm_judged/correctness";

/** The aligned versions of a dataset's judges, stored and read the same on SQLite and PostgreSQL. */
describe("judge alignments in the store", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(4, 1));
  });
  afterAll(async () => cleanup());

  const alignment = (heldOutKeys: string[]): NewAlignment => ({
    datasetId,
    metric: CORRECTNESS,
    seed: "seed-1",
    heldOutShare: 0.4,
    trainingKeys: ["r1", "r2"],
    heldOutKeys,
    examples: [{ key: "r1", label: "no", text: "An answer.", reason: "wrong year" }],
    guidance: "Check the year.",
    promptSuffix: "+aligned/abcdef012345",
    baseRunId: null,
    judgeModel: "judge-model",
    createdById: null,
    defineJudge: (version) =>
      buildAlignedDefinition({ kind: "built-in", metric: CORRECTNESS }, version, {
        examples: [{ key: "r1", label: "no", text: "An answer.", reason: "wrong year" }],
        guidance: "Check the year.",
      }),
  });

  it("numbers a judge's versions, the same when two are made at once", async () => {
    const [a, b] = await Promise.all([createAlignment(db, alignment(["r3"])), createAlignment(db, alignment(["r4"]))]);
    expect([a.version, b.version].sort()).toEqual([1, 2]);
    const stored = await getAlignment(db, a.id);
    expect(stored).toMatchObject({
      metric: CORRECTNESS,
      status: "measuring",
      judgeName: `correctness_aligned_v${a.version}`,
      progress: { done: 0, total: 1 },
      trainingKeys: ["r1", "r2"],
      examples: [{ key: "r1", label: "no", text: "An answer.", reason: "wrong year" }],
      guidance: "Check the year.",
      comparison: null,
    });
    expect((await listAlignments(db, datasetId, CORRECTNESS)).map((x) => x.version)).toEqual([2, 1]);
  });

  it("gives every earlier held-out key, so a later alignment keeps them out of its training", async () => {
    expect([...(await heldOutKeysOfEarlierAlignments(db, datasetId, CORRECTNESS))].sort()).toEqual(["r3", "r4"]);
    expect((await heldOutKeysOfEarlierAlignments(db, datasetId, "response/llm_judged/groundedness")).size).toBe(0);
  });

  it("records progress and the comparison, then the decision: adopted, later discarded, never adopted again", async () => {
    const made = await createAlignment(db, alignment(["r2"]));
    expect(await decideAlignment(db, made.id, "adopted")).toBe(false); // not measured yet
    const spent = { llmCalls: 3, inputTokens: 900, outputTokens: 60, costUsd: 0.01 };
    await recordAlignmentProgress(db, made.id, { done: 1, spent });
    expect(await getAlignment(db, made.id)).toMatchObject({ progress: { done: 1, total: 1 }, spent });
    await recordAlignmentComparison(db, made.id, { verdict: "agrees more (real)" }, { done: 1, spent });
    expect(await getAlignment(db, made.id)).toMatchObject({
      status: "measured",
      comparison: { verdict: "agrees more (real)" },
    });
    expect(await decideAlignment(db, made.id, "adopted")).toBe(true);
    expect((await listAdoptedAlignments(db, datasetId)).map((a) => a.id)).toEqual([made.id]);
    expect(await decideAlignment(db, made.id, "discarded")).toBe(true);
    expect(await decideAlignment(db, made.id, "adopted")).toBe(false);
    expect(await listAdoptedAlignments(db, datasetId)).toEqual([]);
  });

  it("lets a failed measurement, or one whose process stopped, be taken over, and one in progress not", async () => {
    const made = await createAlignment(db, alignment(["r1"]));
    // Fresh heartbeat: another process is measuring.
    expect(await claimAlignmentMeasurement(db, made.id)).toBe(false);
    // No sign of life for longer than MEASUREMENT_STALE_MS: its server stopped.
    await db.judgeAlignment.update({ where: { id: made.id }, data: { heartbeatAt: new Date(Date.now() - 60_000) } });
    expect(await claimAlignmentMeasurement(db, made.id)).toBe(true);
    await recordAlignmentFailure(db, made.id, "the judge endpoint answered 429 four times");
    expect(await getAlignment(db, made.id)).toMatchObject({
      status: "failed",
      errorMessage: "the judge endpoint answered 429 four times",
    });
    expect(await claimAlignmentMeasurement(db, made.id)).toBe(true);
    expect(await getAlignment(db, made.id)).toMatchObject({ status: "measuring", errorMessage: null });
  });

  it("goes with its dataset", async () => {
    expect(await deleteDatasetWithRuns(db, datasetId, 0)).toEqual({ deleted: true });
    expect(await listAlignments(db, datasetId, CORRECTNESS)).toEqual([]);
  });
});

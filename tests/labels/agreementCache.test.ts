// A finished run's agreement figures are kept until the labels or the run change: the same figures while
// nothing moved, fresh ones the moment a label is given, and never kept for a run still judging.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getCachedRunAgreement } from "@/lib/labels/agreementCache";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun } from "./seedRuns";

const GROUNDEDNESS = "response/llm_judged/groundedness";

describe("cached agreement figures", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(4, 1));
    rows = await rowIdsByNumber(db, datasetId);
    runId = await seedRun(
      db,
      datasetId,
      "judge",
      [1, 2, 3, 4].map((rowNumber) => ({ rowNumber, metric: GROUNDEDNESS, rating: "yes" as const })),
    );
  }, 60_000);
  afterAll(async () => cleanup());

  const label = (rowNumber: number, labelledBy: string, value: "yes" | "no") =>
    saveRowLabel(db, { datasetId, rowId: rows.get(rowNumber) ?? "", metric: "groundedness", value, labelledBy });

  it("keeps a finished run's figures until a label changes, then computes them afresh", async () => {
    await label(1, "ann", "yes");
    await label(1, "bob", "no");
    await label(2, "ann", "yes");
    const run = { id: runId, datasetId, status: "completed", finishedAt: new Date("2026-11-29T10:00:00Z") };
    const first = await getCachedRunAgreement(db, run);
    expect(await getCachedRunAgreement(db, run)).toBe(first);
    expect(first.people[0]?.gold.tied).toBe(1);
    await label(1, "cy", "no");
    const after = await getCachedRunAgreement(db, run);
    expect(after).not.toBe(first);
    expect(after.people[0]?.gold.tied).toBe(0);
    expect(after.judges.find((j) => j.metric === GROUNDEDNESS)?.confusion).toEqual({
      yesYes: 1,
      yesNo: 1,
      noYes: 0,
      noNo: 0,
    });
    // A run judging again (re-judge, resume) is never served from memory.
    const judging = { ...run, status: "running" };
    expect(await getCachedRunAgreement(db, judging)).not.toBe(await getCachedRunAgreement(db, judging));
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareScoreHistogram } from "@/lib/charts/scoreHistogram";
import { CHART_COLORS } from "@/lib/charts/palette";
import { getScoreHistogram } from "@/lib/db/judgments/chartQueries";
import { sqlOf, type Db } from "@/lib/db/client";
import type { SqlValue } from "@/lib/db/store/sqlRunner";
import { createTempDb } from "../support/tempDb";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const SCORES = [0, 0.1, 0.3, 0.5, 0.64, 0.7, 0.7, 1, 1];

describe("score histogram on the store under test", () => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const rows = SCORES.map((_, i) => [`r${i}`, "d1", i + 1, `req-${i}`, '"q"', "string", "[]", "q"]);
    const items: SqlValue[][] = SCORES.map((score, i) => [
      `j${i}`,
      "run1",
      `r${i}`,
      FAITHFULNESS,
      "done",
      score,
      0.5,
      false,
    ]);
    // An errored row and another run's score must not count.
    items.push(["jerr", "run1", "r0", "response/statistical/bleu", "error", null, 0.5, false]);
    items.push(["jother", "run2", "r1", FAITHFULNESS, "done", 0.05, 0.5, false]);
    await sqlOf(db).bulkInsert([
      { table: "Dataset", columns: ["id", "name", "status"], rows: [["d1", "d1", "ready"]] },
      {
        table: "DatasetRow",
        columns: [
          "id",
          "datasetId",
          "rowNumber",
          "requestId",
          "requestRaw",
          "requestFormat",
          "messages",
          "requestText",
        ],
        rows,
      },
      {
        table: "Run",
        columns: ["id", "datasetId", "name", "judgeProvider", "judgeModel"],
        rows: [
          ["run1", "d1", "run1", "openai", "m"],
          ["run2", "d1", "run2", "openai", "m"],
        ],
      },
      {
        table: "JudgmentItem",
        columns: ["id", "runId", "rowId", "metric", "status", "score", "threshold", "cacheHit"],
        rows: items,
      },
    ]);
  });
  afterAll(async () => cleanup());

  it("bins scores in SQL over [0, 1] in tenths, an edge score in the bin it starts, 1 in the last bin", async () => {
    const histogram = await getScoreHistogram(db, "run1", FAITHFULNESS, 10);
    expect(histogram?.threshold).toBe(0.5);
    expect(histogram?.min).toBe(0);
    expect(histogram?.max).toBe(1);
    // 0 → bin 0; 0.1 → bin 1 (not 0); 0.3 → bin 3; 0.5 → bin 5; 0.64 → bin 6; 0.7 ×2 → bin 7; 1 ×2 → bin 9 (the closed last bin).
    expect(histogram?.buckets.map((b) => b.count)).toEqual([1, 1, 0, 1, 0, 1, 1, 2, 0, 2]);
  });

  it("returns null for a metric with no score", async () => {
    expect(await getScoreHistogram(db, "run1", "response/statistical/bleu", 10)).toBeNull();
  });

  it("colours bins by success against the pass mark and marks it at its edge", async () => {
    const data = prepareScoreHistogram(await getScoreHistogram(db, "run1", FAITHFULNESS, 10), "higher");
    expect(data.bars[4].fill).toBe(CHART_COLORS.poor);
    // With a 0.7 pass mark the bin [0.6, 0.7) fails whole: its edge is exactly 0.7, not 0.7000000000000001.
    const stricter = prepareScoreHistogram(
      { ...(await getScoreHistogram(db, "run1", FAITHFULNESS, 10))!, threshold: 0.7 },
      "higher",
    );
    expect(stricter.bars[6].fill).toBe(CHART_COLORS.poor);
    expect(stricter.bars[7].fill).toBe(CHART_COLORS.good);
    expect(data.bars[5].fill).toBe(CHART_COLORS.good);
    expect(data.threshold).toEqual({ tick: "0.5–0.6", position: "start", text: "pass mark 0.50 (at least)" });
    expect(data.summary).toBe("9 rows scored");
    expect(data.caption).toBe("9 rows scored · pass mark 0.50 (at least) · x: score, y: rows");
  });

  it("reverses the colours where lower is better, and marks a pass mark of 1 at the right end", () => {
    const histogram = {
      min: 0,
      max: 1,
      threshold: 1,
      buckets: Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: 1 })),
    };
    const lower = prepareScoreHistogram({ ...histogram, threshold: 0.3 }, "lower");
    expect(lower.bars[2].fill).toBe(CHART_COLORS.good);
    // [0.3, 0.4) holds 0.3 (succeeds: ≤ 0.3) and scores above it (fail): mixed, so neutral.
    expect(lower.bars[3].fill).toBe(CHART_COLORS.neutral);
    expect(lower.bars[4].fill).toBe(CHART_COLORS.poor);
    expect(lower.threshold?.text).toContain("lower is better");
    expect(prepareScoreHistogram(histogram, "higher").threshold).toMatchObject({ tick: "0.9–1.0", position: "end" });
  });
});

import { describe, expect, it } from "vitest";
import { prepareHistogram } from "@/lib/charts/histogram";
import { CHART_COLORS } from "@/lib/charts/palette";

describe("prepareHistogram", () => {
  it("labels second buckets with as many decimals as their width needs", () => {
    // min 0.5, max 2.0 in 3 buckets: width 0.5 → one decimal.
    const data = prepareHistogram(
      {
        min: 0.5,
        max: 2,
        buckets: [
          { from: 0.5, to: 1, count: 3 },
          { from: 1, to: 1.5, count: 0 },
          { from: 1.5, to: 2, count: 1 },
        ],
      },
      "seconds",
    );
    expect(data.bars.map((bar) => bar.label)).toEqual(["0.5–1.0 s", "1.0–1.5 s", "1.5–2.0 s"]);
    expect(data.bars.map((bar) => bar.tick)).toEqual(["0.5–1.0", "1.0–1.5", "1.5–2.0"]);
    expect(data.bars.map((bar) => bar.countText)).toEqual(["3 rows (75.0%)", "0 rows (0.0%)", "1 row (25.0%)"]);
    expect(data.total).toBe(4);
    expect(data.summary).toBe("4 rows · 0.5 s to 2.0 s");
    // The same Histogram leaf draws scores: a caption line and no pass mark here.
    expect(data.caption).toBe("4 rows · 0.5 s to 2.0 s · x: seconds, y: rows");
    expect(data.threshold).toBeNull();
    expect(data.emptyMessage).toBeNull();
  });

  it("uses two decimals for buckets 0.05 s wide", () => {
    const data = prepareHistogram(
      {
        min: 0.1,
        max: 0.2,
        buckets: [
          { from: 0.1, to: 0.15, count: 1 },
          { from: 0.15, to: 0.2, count: 1 },
        ],
      },
      "seconds",
    );
    expect(data.bars.map((bar) => bar.label)).toEqual(["0.10–0.15 s", "0.15–0.20 s"]);
  });

  it("labels token buckets with the integers each can hold, the last one closed", () => {
    // [1000, 1500), [1500, 2000]: 1,000–1,499 and 1,500–2,000.
    const data = prepareHistogram(
      {
        min: 1000,
        max: 2000,
        buckets: [
          { from: 1000, to: 1500, count: 2 },
          { from: 1500, to: 2000, count: 5 },
        ],
      },
      "tokens",
    );
    expect(data.bars.map((bar) => bar.label)).toEqual(["1,000–1,499 tokens", "1,500–2,000 tokens"]);
    expect(data.summary).toBe("7 rows · 1,000 tokens to 2,000 tokens");
  });

  it("drops token buckets too narrow to hold an integer (they are always empty)", () => {
    // 10 to 12 in 4 buckets of 0.5: [10, 10.5) holds 10, [10.5, 11) nothing, [11, 11.5) holds 11, [11.5, 12] holds 12.
    const data = prepareHistogram(
      {
        min: 10,
        max: 12,
        buckets: [
          { from: 10, to: 10.5, count: 1 },
          { from: 10.5, to: 11, count: 0 },
          { from: 11, to: 11.5, count: 2 },
          { from: 11.5, to: 12, count: 1 },
        ],
      },
      "tokens",
    );
    expect(data.bars.map((bar) => bar.label)).toEqual(["10 tokens", "11 tokens", "12 tokens"]);
    expect(data.bars.map((bar) => bar.count)).toEqual([1, 2, 1]);
  });

  it("shows one bar when every row has the same value", () => {
    const data = prepareHistogram({ min: 1.25, max: 1.25, buckets: [{ from: 1.25, to: 1.25, count: 6 }] }, "seconds");
    expect(data.bars).toEqual([
      {
        tick: "1.25",
        label: "1.25 s",
        count: 6,
        countText: "6 rows (100.0%)",
        fill: CHART_COLORS.neutral,
        from: 1.25,
        to: 1.25,
      },
    ]);
    expect(data.summary).toBe("6 rows, all 1.25 s");
    const tokens = prepareHistogram({ min: 2337, max: 2337, buckets: [{ from: 2337, to: 2337, count: 1 }] }, "tokens");
    expect(tokens.bars.map((bar) => bar.label)).toEqual(["2,337 tokens"]);
    expect(tokens.summary).toBe("1 row, all 2,337 tokens");
  });

  it("says why there is no chart when no row has a value", () => {
    const data = prepareHistogram(null, "tokens");
    expect(data.bars).toEqual([]);
    expect(data.total).toBe(0);
    expect(data.summary).toBeNull();
    expect(data.caption).toBeNull();
    expect(data.emptyMessage).toMatch(/token count/);
  });
});

import { describe, expect, it } from "vitest";
import { pairedRateDifference } from "@/lib/stats";

const Z = 1.959963984540054;

describe("pairedRateDifference (Wald interval with Agresti and Min's adjustment)", () => {
  it("matches a hand computation on Bentur et al.'s airway data (a = 1, b = 1, c = 7, d = 12, n = 21)", () => {
    // The example Fagerland, Lydersen and Laake (2014) work through. By hand, half a row added to each cell:
    //   n* = 23, b* = 1.5, c* = 7.5; centre = 6/23; half-width = z·√(9 − 36/23)/23
    //   → 0.028513297341111 to 0.493225833093671; the observed difference is (7 − 1)/21 = 0.285714…
    const result = pairedRateDifference(1, 7, 21)!;
    expect(result.difference).toBeCloseTo(6 / 21, 12);
    expect(result.low).toBeCloseTo(6 / 23 - (Z * Math.sqrt(9 - 36 / 23)) / 23, 12);
    expect(result.high).toBeCloseTo(6 / 23 + (Z * Math.sqrt(9 - 36 / 23)) / 23, 12);
    expect(result.low).toBeCloseTo(0.028513297341111, 12);
    expect(result.high).toBeCloseTo(0.493225833093671, 12);
  });

  it("does not collapse to [0, 0] when no row flipped", () => {
    // b = c = 0, n = 10: centre 0, half-width = z·√1/12 = 0.163330332045…
    const result = pairedRateDifference(0, 0, 10)!;
    expect(result.difference).toBe(0);
    expect(result.low).toBeCloseTo(-Z / 12, 12);
    expect(result.high).toBeCloseTo(Z / 12, 12);
    expect(result.high - result.low).toBeGreaterThan(0.3);
  });

  it("always holds the difference it belongs to, within [−1, 1]", () => {
    for (let n = 1; n <= 40; n++)
      for (let b = 0; b <= n; b++)
        for (let c = 0; b + c <= n; c++) {
          const { difference, low, high } = pairedRateDifference(b, c, n)!;
          expect(difference).toBe((c - b) / n);
          expect(low).toBeLessThanOrEqual(difference);
          expect(high).toBeGreaterThanOrEqual(difference);
          expect(low).toBeGreaterThanOrEqual(-1);
          expect(high).toBeLessThanOrEqual(1);
        }
  });

  it("has no difference without paired rows, and refuses impossible counts", () => {
    expect(pairedRateDifference(0, 0, 0)).toBeNull();
    expect(() => pairedRateDifference(3, 4, 5)).toThrow(RangeError);
    expect(() => pairedRateDifference(-1, 0, 5)).toThrow(RangeError);
  });
});

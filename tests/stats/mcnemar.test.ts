import { describe, expect, it } from "vitest";
import { exactMcNemar, normalQuantile } from "@/lib/stats";

/** Exact two-sided p via BigInt: 2·Σ_{i≤k} C(n, i) / 2^n, an independent reference. */
function bigIntReference(b: number, c: number): number {
  const n = BigInt(b + c);
  const k = BigInt(Math.min(b, c));
  let term = 1n;
  let sum = 0n;
  for (let i = 0n; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1n);
  }
  const scale = 10n ** 30n;
  const p = Number((2n * sum * scale) / 2n ** n) / 1e30;
  return Math.min(1, p);
}

describe("exactMcNemar", () => {
  it("no discordant pairs → p = 1", () => {
    expect(exactMcNemar(0, 0)).toEqual({ pValue: 1, b: 0, c: 0 });
  });

  it("b = 1, c = 5", () => {
    // n = 6, k = 1: P(X ≤ 1) = (C(6,0) + C(6,1)) / 2^6 = (1 + 6)/64 = 7/64
    // p = 2 · 7/64 = 14/64 = 0.21875.
    // (The brief's "2·(1 + 5)/64 = 0.1875" used C(6,1) = 5; C(6,1) is 6.
    //  SciPy's binomtest(1, 6, 0.5).pvalue is also 0.21875.)
    expect(exactMcNemar(1, 5)).toEqual({ pValue: 0.21875, b: 1, c: 5 });
  });

  it("b = 0, c = 6", () => {
    // P(X ≤ 0) = C(6,0)/64 = 1/64; p = 2/64 = 0.03125
    expect(exactMcNemar(0, 6).pValue).toBe(0.03125);
  });

  it("is symmetric in b and c", () => {
    for (const [b, c] of [
      [1, 5],
      [0, 6],
      [3, 17],
      [480, 521],
      [9900, 10100],
    ]) {
      expect(exactMcNemar(c, b).pValue).toBe(exactMcNemar(b, c).pValue);
    }
  });

  it("caps at 1 when b = c (the two tails share the middle term)", () => {
    // b = c = 3: P(X ≤ 3) = (1 + 6 + 15 + 20)/64 = 42/64; 2·42/64 > 1 → 1
    expect(exactMcNemar(3, 3).pValue).toBe(1);
    expect(exactMcNemar(50_000, 50_000).pValue).toBe(1);
  });

  it("agrees with exact BigInt arithmetic on both sides of the small/large-n switch", () => {
    for (const [b, c] of [
      [2, 12],
      [40, 70],
      [480, 520],
      [480, 521],
      [900, 1100],
    ]) {
      const reference = bigIntReference(b, c);
      expect(Math.abs(exactMcNemar(b, c).pValue - reference) / reference).toBeLessThan(1e-9);
    }
  });

  it("b + c = 20,000: no overflow, matches BigInt exactly and the normal approximation closely", () => {
    const { pValue } = exactMcNemar(9_900, 10_100);
    // BigInt reference (also Python's exact Fraction): 0.15938343598473...
    expect(Math.abs(pValue - bigIntReference(9_900, 10_100)) / pValue).toBeLessThan(1e-9);
    // Continuity-corrected normal: z = (|b − c| − 1)/sqrt(b + c) = 199/141.4214 = 1.40714.
    // Convert the exact p back to a z and compare on that scale.
    expect(normalQuantile(1 - pValue / 2)).toBeCloseTo(199 / Math.sqrt(20_000), 3);
  });

  it("b + c = 100,000: tiny p stays finite and positive, near the normal approximation", () => {
    const { pValue } = exactMcNemar(49_000, 51_000);
    // z_cc = 1999/sqrt(100000) = 6.3214; exact p ≈ 2.5887e-10 (Python Fraction reference).
    expect(pValue).toBeGreaterThan(0);
    expect(pValue).toBeCloseTo(2.588716038346898e-10, 18);
    expect(normalQuantile(1 - pValue / 2)).toBeCloseTo(1999 / Math.sqrt(100_000), 1);
    // 2^-99999 is below the smallest double; 0 is the honest rounding, not NaN.
    expect(exactMcNemar(0, 100_000).pValue).toBe(0);
  });

  it("rejects non-counts", () => {
    for (const [b, c] of [
      [-1, 2],
      [1.5, 2],
      [Number.NaN, 0],
      [0, Number.POSITIVE_INFINITY],
    ]) {
      expect(() => exactMcNemar(b, c)).toThrow(RangeError);
    }
  });
});

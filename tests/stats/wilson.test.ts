import { describe, expect, it } from "vitest";
import { normalQuantile, twoSidedZ, wilsonInterval } from "@/lib/stats";

// Wilson: with p̂ = s/n, z² and d = 1 + z²/n,
//   center = (p̂ + z²/(2n)) / d,  half = z·sqrt(p̂(1−p̂)/n + z²/(4n²)) / d.
// At 95%, z = 1.959963984540054, z² = 3.8414588206941254.
const Z2 = 3.8414588206941254;

describe("normal quantile", () => {
  it("pins the textbook two-sided z for common levels", () => {
    expect(twoSidedZ(0.95)).toBe(1.959963984540054);
    expect(twoSidedZ(0.9)).toBe(1.6448536269514722);
    expect(twoSidedZ(0.99)).toBe(2.5758293035489004);
  });

  it("matches published quantiles for other levels (AS 241 is good to ~1e-16)", () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232306167813, 14);
    expect(twoSidedZ(0.8)).toBeCloseTo(1.2815515655446004, 14); // Φ⁻¹(0.9)
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12); // far tail branch
    expect(normalQuantile(0.2)).toBeCloseTo(-normalQuantile(0.8), 15); // symmetry
  });

  it("rejects probabilities outside (0, 1)", () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});

describe("wilsonInterval", () => {
  it("36/50 at 95%", () => {
    // p̂ = 0.72, n = 50
    // d      = 1 + 3.84145882/50            = 1.07682918
    // center = (0.72 + 3.84145882/100) / d  = 0.75841459 / 1.07682918 = 0.70430353
    // inner  = 0.72·0.28/50 + 3.84145882/10000 = 0.004032 + 0.00038415 = 0.00441615
    // half   = 1.95996398 · sqrt(0.00441615) / d = 1.95996398 · 0.06645409 / 1.07682918 = 0.12095477
    // → [0.70430353 − 0.12095477, 0.70430353 + 0.12095477] = [0.58334876, 0.82525829]
    const ci = wilsonInterval(36, 50)!;
    expect(ci.low).toBeCloseTo(0.58334876, 7);
    expect(ci.high).toBeCloseTo(0.82525829, 7);
  });

  it("0/10: low is exactly 0, high = z²/(n + z²)", () => {
    // p̂ = 0 makes half = (z²/2n)/d = center, so low = 0 and high = 2·center = (z²/n)/(1 + z²/n).
    // 3.84145882 / 13.84145882 = 0.27753280
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: expect.closeTo(Z2 / (10 + Z2), 14) });
    expect(wilsonInterval(0, 10)!.high).toBeCloseTo(0.2775328, 7);
  });

  it("10/10: mirror image, low = n/(n + z²), high exactly 1", () => {
    // 10 / 13.84145882 = 0.72246720 (= 1 − 0.27753280, by symmetry with 0/10)
    const ci = wilsonInterval(10, 10)!;
    expect(ci.high).toBe(1);
    expect(ci.low).toBeCloseTo(0.7224672, 7);
    expect(ci.low).toBeCloseTo(1 - wilsonInterval(0, 10)!.high, 14);
  });

  it("1/1: low = 1/(1 + z²)", () => {
    // 1 / 4.84145882 = 0.20654931
    expect(wilsonInterval(1, 1)).toEqual({ low: expect.closeTo(0.20654931, 7), high: 1 });
  });

  it("null with no trials; widens with confidence; stays inside [0, 1]", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    const at90 = wilsonInterval(36, 50, 0.9)!;
    const at99 = wilsonInterval(36, 50, 0.99)!;
    expect(at90.low).toBeGreaterThan(0.58334876);
    expect(at99.low).toBeLessThan(0.58334876);
    for (const [s, n] of [
      [1, 2],
      [0, 1],
      [3, 1000],
      [999, 1000],
    ]) {
      const ci = wilsonInterval(s, n, 0.999)!;
      expect(ci.low).toBeGreaterThanOrEqual(0);
      expect(ci.high).toBeLessThanOrEqual(1);
      expect(ci.low).toBeLessThan(s / n === 0 ? 1e-12 : s / n);
    }
  });

  it("rejects impossible counts and levels", () => {
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 5, 1)).toThrow(RangeError);
    expect(() => wilsonInterval(0, 0, 95)).toThrow(RangeError);
  });
});

import { describe, expect, it } from "vitest";
import { cohensKappa } from "@/lib/stats/agreement";
import { cohensKappaMatrix } from "@/lib/stats/kappaMatrix";

describe("Cohen's κ over k categories", () => {
  it("equals the yes/no κ and its standard error on a 2×2 matrix", () => {
    const counts = { yesYes: 20, yesNo: 5, noYes: 10, noNo: 15 };
    const binary = cohensKappa(counts);
    const matrix = cohensKappaMatrix([
      [20, 5],
      [10, 15],
    ]);
    if (!binary.defined || !matrix.defined) throw new Error("undefined");
    expect(matrix.kappa).toBeCloseTo(binary.kappa, 12);
    expect(matrix.standardError).toBeCloseTo(binary.standardError, 12);
  });

  it("matches a hand computation on 3 categories", () => {
    // Fleiss, Levin & Paik's 3×3 example shape: po = 0.70, margins (0.5, 0.3, 0.2) both ways → pe = 0.38.
    const result = cohensKappaMatrix([
      [40, 5, 5],
      [5, 20, 5],
      [5, 5, 10],
    ]);
    if (!result.defined) throw new Error("undefined");
    expect(result.agreement).toBeCloseTo(0.7, 12);
    expect(result.kappa).toBeCloseTo((0.7 - 0.38) / (1 - 0.38), 12);
    expect(result.low).toBeLessThan(result.kappa);
    expect(result.high).toBeGreaterThan(result.kappa);
  });

  it("is undefined with under two items or one shared category throughout", () => {
    expect(
      cohensKappaMatrix([
        [1, 0],
        [0, 0],
      ]).defined,
    ).toBe(false);
    expect(
      cohensKappaMatrix([
        [0, 0, 0],
        [0, 9, 0],
        [0, 0, 0],
      ]).defined,
    ).toBe(false);
  });
});

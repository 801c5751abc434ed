import { describe, expect, it } from "vitest";
import { adoptionAdvice } from "@/lib/alignment/adoptionAdvice";
import { compareOnHeldOut, type HeldOutRow } from "@/lib/alignment/heldOutComparison";

/** Held-out rows where the original and the aligned version each get `right` of `n` rows right. */
function rows(n: number, originalRight: number, alignedRight: number): HeldOutRow[] {
  return Array.from({ length: n }, (_, i) => ({
    label: "yes",
    original: i < originalRight ? "yes" : "no",
    aligned: i < alignedRight ? "yes" : "no",
  }));
}

describe("which decision the aligned judge's page puts first", () => {
  it("leads with Discard when the aligned version measured worse, even without a real difference", () => {
    // The case a new user met: 36.8 % against 57.9 % raw agreement on 19 held-out labels.
    const comparison = compareOnHeldOut(rows(19, 11, 7));
    expect(comparison.verdict).not.toBe("agrees more (real)");
    expect(adoptionAdvice(comparison)).toMatchObject({ primary: "discard", adoptLabel: "Adopt anyway" });
  });

  it("leads with Adopt only when the aligned version agrees more and it is real", () => {
    const comparison = compareOnHeldOut(rows(60, 20, 50));
    expect(comparison.verdict).toBe("agrees more (real)");
    expect(adoptionAdvice(comparison).primary).toBe("adopt");
  });

  it("leads with neither when there is no real difference and the aligned version is not worse", () => {
    expect(adoptionAdvice(compareOnHeldOut(rows(20, 10, 11))).primary).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { formatAgreement, measureAgreement } from "../fixtures/heldout/heldoutAgreement";
import { loadMeasureSet } from "../fixtures/measure/measureSets";

/**
 * Agreement of the offline judge with two public human-labelled sets of other sources than the one its
 * rules were written on (tests/fixtures/measure, a README each): TruthfulQA for correctness, Symmetric
 * FEVER for groundedness. No rule was written looking at their rows. The floors are a little under the
 * measurement of the rules at the commit that added this test; they guard against a rule change making
 * the offline judge worse on data it has never seen, and show how far it is from a model judge.
 */

describe("agreement with sets no rule was written on", () => {
  // TruthfulQA, 551 rows: correctness 54.8% κ 0.05 (the rules before the language rules: 52.3% κ 0.01).
  // Its "yes" means "true", not "says what the expected answer says", which a lexical judge cannot check.
  it("TruthfulQA, correctness", () => {
    const agreement = measureAgreement(loadMeasureSet("truthfulqa"), "correctness");
    console.log(`heuristic judge vs TruthfulQA: ${formatAgreement(agreement)}`);
    expect([agreement.n, agreement.errors]).toEqual([551, 0]);
    expect(agreement.accuracy).toBeGreaterThanOrEqual(0.53);
    expect(agreement.kappa ?? -1).toBeGreaterThanOrEqual(0.03);
  });

  // Symmetric FEVER, 956 rows: groundedness 57.5% κ 0.15 (before the language rules: 55.3% κ 0.11).
  // Each claim and evidence sentence appears twice with opposite labels, often one word apart.
  it("Symmetric FEVER, groundedness", () => {
    const agreement = measureAgreement(loadMeasureSet("fever-symmetric"), "groundedness");
    console.log(`heuristic judge vs Symmetric FEVER: ${formatAgreement(agreement)}`);
    expect([agreement.n, agreement.errors]).toEqual([956, 0]);
    expect(agreement.accuracy).toBeGreaterThanOrEqual(0.56);
    expect(agreement.kappa ?? -1).toBeGreaterThanOrEqual(0.13);
  });
});

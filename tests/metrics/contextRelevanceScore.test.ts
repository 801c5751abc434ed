import { describe, expect, it } from "vitest";
import { contextRelevanceSettings } from "@/lib/contract/contextRelevanceSettings";
import { computeContextRelevance, type ContextPieceAssessment } from "@/lib/metrics/contextRelevanceScore";

/**
 * Mastra's worked examples for its context relevance scorer. The documentation states the expected score and, in its reason, which pieces
 * are relevant, used, unused or irrelevant; the levels below are the ones its numbers imply (each
 * checked against the formula: e.g. 0.64 = (1 + 1 + 0.7 + 0 + 1) / 5 − 0.1 needs piece 3 at medium).
 */
const high = (used: boolean): ContextPieceAssessment => ({ level: "high", used });
const medium = (used: boolean): ContextPieceAssessment => ({ level: "medium", used });
const low = (used: boolean): ContextPieceAssessment => ({ level: "low", used });
const none: ContextPieceAssessment = { level: "none", used: false };

/** The solar-eclipse example: contexts 1 and 2 high and used, 3 (the Moon visible at night) medium, 4 irrelevant, 5 high but unused. */
const ECLIPSE = [high(true), high(true), medium(false), none, high(false)];

describe("Mastra's context relevance formula", () => {
  it("high relevance example: every piece highly relevant and used scores 1.0", () => {
    expect(computeContextRelevance([high(true), high(true), high(true)], 0).score).toBe(1.0);
  });

  it("mixed relevance example with default penalties scores 0.64 (base 0.74, one unused high piece −0.1)", () => {
    const result = computeContextRelevance(ECLIPSE, 0);
    expect(result.base).toBeCloseTo(0.74, 12);
    expect(result.usagePenalty).toBeCloseTo(0.1, 12);
    expect(result.score).toBe(0.64);
  });

  it("mixed relevance example with the lenient custom penalties (0.05 / 0.1 / 0.3) scores 0.69", () => {
    const settings = contextRelevanceSettings({
      unusedHighRelevanceContext: 0.05,
      missingContextPerItem: 0.1,
      maxMissingContextPenalty: 0.3,
    });
    expect(computeContextRelevance(ECLIPSE, 0, settings).score).toBe(0.69);
  });

  it("low relevance example: only the capital piece (high, used) and the states piece (low) count: 0.26", () => {
    expect(computeContextRelevance([none, none, none, low(false), high(true)], 0).score).toBe(0.26);
  });

  it("custom scale: scale 100 gives 85 where scale 1 gives 0.85", () => {
    const pieces = [high(true), medium(true)];
    expect(computeContextRelevance(pieces, 0).score).toBe(0.85);
    expect(computeContextRelevance(pieces, 0, contextRelevanceSettings({ scale: 100 })).score).toBe(85);
  });

  it("strict penalties score lower than lenient ones on the Einstein example (relativity relevant but unused)", () => {
    // Nobel prize piece high and used; relativity high but unused; birthplace low. Base (1 + 1 + 0.3) / 3.
    const pieces = [high(true), high(false), low(false)];
    const strict = contextRelevanceSettings({
      unusedHighRelevanceContext: 0.2,
      missingContextPerItem: 0.25,
      maxMissingContextPenalty: 0.6,
    });
    const lenient = contextRelevanceSettings({
      unusedHighRelevanceContext: 0.05,
      missingContextPerItem: 0.1,
      maxMissingContextPenalty: 0.3,
    });
    expect(computeContextRelevance(pieces, 0, strict).score).toBe(0.57);
    expect(computeContextRelevance(pieces, 0, lenient).score).toBe(0.72);
    expect(computeContextRelevance(pieces, 0).score).toBe(0.67);
  });

  it("missing information costs missingContextPerItem each, capped at maxMissingContextPenalty", () => {
    const pieces = [high(true), high(true)];
    expect(computeContextRelevance(pieces, 1).score).toBe(0.85);
    expect(computeContextRelevance(pieces, 2).score).toBe(0.7);
    // 5 × 0.15 = 0.75, capped at 0.5.
    expect(computeContextRelevance(pieces, 5).missingPenalty).toBe(0.5);
    expect(computeContextRelevance(pieces, 5).score).toBe(0.5);
    // The dynamic-extraction example's settings: 0.2 per item, capped at 0.4.
    const settings = contextRelevanceSettings({
      unusedHighRelevanceContext: 0.15,
      missingContextPerItem: 0.2,
      maxMissingContextPenalty: 0.4,
    });
    expect(computeContextRelevance([high(true), high(false)], 3, settings).score).toBe(0.45);
  });

  it("never goes below 0, and scores an empty assessment 0 when information was missing, else 1", () => {
    expect(computeContextRelevance([none, high(false)], 4).score).toBe(0);
    expect(computeContextRelevance([], 2).score).toBe(0);
    expect(computeContextRelevance([], 0).score).toBe(1);
  });

  it("fills the unset settings with Mastra's defaults", () => {
    expect(contextRelevanceSettings({ scale: 10 })).toEqual({
      unusedHighRelevanceContext: 0.1,
      missingContextPerItem: 0.15,
      maxMissingContextPenalty: 0.5,
      scale: 10,
    });
  });
});

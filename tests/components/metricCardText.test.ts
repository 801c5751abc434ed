import { describe, expect, it } from "vitest";
import { cardBasis, skippedSentence } from "@/components/runs/summary/metricCardText";
import type { Aggregate } from "@/lib/contract/aggregates";

const IDEAL_CONTEXT = "needs expected_retrieved_context[].content (the ideal context)";

/** A card whose metric judged no row: every one of 200 skipped for want of an input. */
function nothingJudged(overrides: Partial<Aggregate> = {}): Aggregate {
  return {
    metric: "response/llm_judged/hallucination",
    value: null,
    pending: 0,
    errors: 0,
    skipped: 200,
    ...overrides,
  } as Aggregate;
}

describe("a metric card's line when no row could be judged", () => {
  it("says in one sentence how many rows were skipped and why", () => {
    expect(cardBasis(nothingJudged(), [{ reason: IDEAL_CONTEXT, count: 200 }])).toBe(
      `200 rows skipped: ${IDEAL_CONTEXT}`,
    );
  });

  it("names the most common reason and counts the others", () => {
    expect(
      skippedSentence(200, [
        { reason: IDEAL_CONTEXT, count: 150 },
        { reason: "needs retrieved_context", count: 50 },
      ]),
    ).toBe(`200 rows skipped: ${IDEAL_CONTEXT} (150); 50 for other reasons`);
  });

  it("says errors are why, and 'not computed yet' only while rows are pending", () => {
    expect(cardBasis(nothingJudged({ skipped: 0, errors: 3 }))).toBe("no row could be judged: 3 judgments errored");
    expect(cardBasis(nothingJudged({ pending: 5 }))).toBe("not computed yet");
  });
});

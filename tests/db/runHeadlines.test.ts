import { describe, expect, it } from "vitest";
import { orderHeadlines } from "@/lib/db/runs/runHeadlines";

describe("a run's headline pass rates", () => {
  it("come worst first, then by name, whatever order the store gave them in", () => {
    const tallies = [
      { metric: "response/llm_judged/safety", rate: 1, judged: 50 },
      { metric: "response/llm_judged/relevance_to_query", rate: 0.9, judged: 50 },
      { metric: "response/llm_judged/groundedness", rate: 0.62, judged: 50 },
      { metric: "response/llm_judged/correctness", rate: 0.4, judged: 50 },
      { metric: "retrieval/llm_judged/context_sufficiency", rate: 0.62, judged: 50 },
    ];
    const expected = [
      "response/llm_judged/correctness",
      "response/llm_judged/groundedness",
      "retrieval/llm_judged/context_sufficiency",
      "response/llm_judged/relevance_to_query",
      "response/llm_judged/safety",
    ];
    expect(orderHeadlines(tallies).map((h) => h.metric)).toEqual(expected);
    expect(orderHeadlines([...tallies].reverse()).map((h) => h.metric)).toEqual(expected);
    // The first four shown never leave out the worst.
    expect(
      orderHeadlines(tallies)
        .slice(0, 4)
        .map((h) => h.metric),
    ).toContain("response/llm_judged/correctness");
  });
});

import { describe, expect, it } from "vitest";
import { prepareJudgeUsage } from "@/lib/charts/judgeUsage";
import type { JudgeUsageLine } from "@/lib/db/judgments/chartQueries";

const line = (metric: string, fields: Partial<JudgeUsageLine>): JudgeUsageLine => ({
  metric,
  items: 0,
  metered: 0,
  cacheHits: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: null,
  priced: 0,
  ...fields,
});

describe("prepareJudgeUsage", () => {
  it("lists LLM-judged metrics with formatted tokens and cost, and the total", () => {
    const table = prepareJudgeUsage({
      total: {
        items: 30,
        metered: 20,
        cacheHits: 2,
        inputTokens: 123456,
        outputTokens: 7890,
        costUsd: 0.0042,
        priced: 20,
      },
      metrics: [
        line("agent/latency_seconds", { items: 10 }),
        line("response/llm_judged/correctness", {
          items: 10,
          metered: 10,
          cacheHits: 2,
          inputTokens: 100000,
          outputTokens: 5000,
          costUsd: 0.0032,
          priced: 10,
        }),
        line("retrieval/llm_judged/chunk_relevance", {
          items: 10,
          metered: 10,
          inputTokens: 23456,
          outputTokens: 2890,
          costUsd: 0.001,
          priced: 10,
        }),
      ],
    });
    expect(table.lines.map((l) => [l.label, l.callsText, l.inputText, l.outputText, l.costText])).toEqual([
      ["Correctness", "10 (2 cached)", "100,000", "5,000", "$0.0032"],
      ["Chunk relevance", "10", "23,456", "2,890", "$0.0010"],
    ]);
    expect(table.total).toEqual({
      callsText: "20 (2 cached)",
      inputText: "123,456",
      outputText: "7,890",
      costText: "$0.0042",
    });
    expect(table.note).toBeNull();
  });

  it("says when cost is partial, unknown, or there were no judge calls", () => {
    const partial = prepareJudgeUsage({
      total: { items: 4, metered: 4, cacheHits: 0, inputTokens: 10, outputTokens: 2, costUsd: 12.5, priced: 3 },
      metrics: [],
    });
    expect(partial.note).toBe("Cost covers 3 of 4 judge calls; the rest have no known price.");
    expect(partial.total.costText).toBe("$12.50");
    const unpriced = prepareJudgeUsage({
      total: { items: 4, metered: 4, cacheHits: 0, inputTokens: 10, outputTokens: 2, costUsd: null, priced: 0 },
      metrics: [],
    });
    expect(unpriced.note).toMatch(/No price/);
    expect(unpriced.total.costText).toBe("—");
    const offline = prepareJudgeUsage({
      total: { items: 4, metered: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, costUsd: null, priced: 0 },
      metrics: [line("response/llm_judged/safety", { items: 4 })],
    });
    expect(offline.note).toMatch(/heuristic/);
    expect(offline.lines.map((l) => l.callsText)).toEqual(["0"]);
  });
});

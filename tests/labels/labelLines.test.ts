import { describe, expect, it } from "vitest";
import { compareLabelLines, labelLineKeys, LINE_KEYS } from "@/lib/labels/labelLines";

const line = (metric: string, chunkPosition: number | null = null) => ({ metric, chunkPosition });
const G = "response/llm_judged/groundedness";
const C = "response/llm_judged/correctness";
const CR = "retrieval/llm_judged/chunk_relevance";
const BIAS = "response/llm_judged/bias";

describe("the drill-down's label lines", () => {
  it("order by the catalogue, then a run's own judges by name, then chunk, whatever order the run judged in", () => {
    const lines = [
      line("response/llm_judged/zeta"),
      line(CR, 1),
      line(G),
      line("response/llm_judged/alpha"),
      line(CR, 0),
      line(C),
    ];
    expect(lines.sort(compareLabelLines).map((l) => `${l.metric.split("/").at(-1)}${l.chunkPosition ?? ""}`)).toEqual([
      "correctness",
      "groundedness",
      "chunk_relevance0",
      "chunk_relevance1",
      "alpha",
      "zeta",
    ]);
  });

  it("give a catalogue judge the same key on every run, letters past 9, and a chunk metric's key to its first chunk", () => {
    const full = [line(C), line(G), line(CR, 0), line(CR, 1), line(BIAS)];
    const fewer = [line(G), line(BIAS)];
    const keysOf = (lines: ReturnType<typeof line>[]) => labelLineKeys(lines);
    expect(keysOf(full)).toEqual(["1", "3", "5", null, "e"]);
    expect(keysOf(fewer)).toEqual(["3", "e"]);
    expect(LINE_KEYS).not.toContain("j");
    expect(LINE_KEYS).not.toContain("k");
    expect(LINE_KEYS).not.toContain("n");
    expect(LINE_KEYS).not.toContain("y");
  });
});

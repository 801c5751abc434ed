import { describe, expect, it } from "vitest";
import { parseHumanLabels } from "@/lib/ingest/humanLabels";
import { labelKindOf, labellableMetrics, resolveLabelMetric } from "@/lib/labels/labelKinds";
import { METRICS } from "@/lib/contract/metricCatalog";

const where = { row: 3, line: 5, format: "json" as const };

describe("label kinds from the catalogue", () => {
  it("yes/no for yes/no judges, per chunk for chunk_relevance, none for computed metrics", () => {
    expect(resolveLabelMetric("groundedness")).toEqual({ metric: "response/llm_judged/groundedness", kind: "rating" });
    expect(resolveLabelMetric("chunk_relevance")).toEqual({
      metric: "retrieval/llm_judged/chunk_relevance",
      kind: "chunk_rating",
    });
    expect(resolveLabelMetric("document_recall")).toMatchObject({ error: expect.stringContaining("no human label") });
    expect(resolveLabelMetric("agent/latency_seconds")).toMatchObject({ error: expect.any(String) });
    expect(resolveLabelMetric("groundednes")).toMatchObject({ error: expect.stringContaining("unknown metric") });
    expect(labellableMetrics().map((m) => m.metric)).not.toContain("agent/latency_seconds");
  });

  it("a catalogue entry with a score and threshold takes a score label, without an edit here", () => {
    const base = METRICS.find((m) => m.name === "response/llm_judged/groundedness");
    if (!base) throw new Error("catalogue changed");
    expect(labelKindOf({ ...base, name: "response/llm_judged/coherence" })).toBe("rating");
    expect(labelKindOf({ ...base, name: "response/llm_judged/coherence", threshold: 0.5 } as typeof base)).toBe(
      "score",
    );
    // A judged family with a kind of its own still takes labels; a computed one (statistical scores) does not.
    expect(labelKindOf({ ...base, name: "response/llm_judged/bias", kind: "deepeval" } as unknown as typeof base)).toBe(
      "score",
    );
    expect(
      labelKindOf({ ...base, name: "response/statistical/bleu", kind: "statistical" } as unknown as typeof base),
    ).toBe(null);
    // A metric with a score prompt template (DeepEval's faithfulness) is a score metric by its template.
    expect(labelKindOf({ ...base, name: "response/llm_judged/faithfulness" })).toBe("score");
  });
});

describe("parseHumanLabels (the upload's human_labels column)", () => {
  it("reads short names, yes/no in any case, and per-chunk lists (null leaves a chunk unlabelled)", () => {
    const { entries, issues } = parseHumanLabels(
      { groundedness: "No", correctness: "yes", chunk_relevance: ["yes", null, "no"] },
      where,
      3,
    );
    expect(issues).toEqual([]);
    expect(entries).toEqual([
      { metric: "response/llm_judged/groundedness", chunkPosition: -1, value: { kind: "rating", rating: "no" } },
      { metric: "response/llm_judged/correctness", chunkPosition: -1, value: { kind: "rating", rating: "yes" } },
      { metric: "retrieval/llm_judged/chunk_relevance", chunkPosition: 0, value: { kind: "rating", rating: "yes" } },
      { metric: "retrieval/llm_judged/chunk_relevance", chunkPosition: 2, value: { kind: "rating", rating: "no" } },
    ]);
  });

  it("reads the JSON text of a CSV cell", () => {
    const { entries, issues } = parseHumanLabels('{"safety": "yes"}', { ...where, format: "csv" }, null);
    expect(issues).toEqual([]);
    expect(entries).toHaveLength(1);
  });

  it("reports unknown metrics, wrong kinds and chunk-count mismatches as row issues in column human_labels", () => {
    const { entries, issues } = parseHumanLabels(
      { groundednes: "no", correctness: 0.7, document_recall: 1, chunk_relevance: ["yes"], safety: "yes" },
      where,
      3,
    );
    expect(entries).toHaveLength(1); // safety only
    expect(issues).toHaveLength(4);
    for (const issue of issues) expect(issue).toMatchObject({ row: 3, line: 5, column: "human_labels" });
    expect(issues[0].message).toContain('unknown metric "groundednes"');
    expect(issues[1].message).toContain('expected "yes" or "no" for response/llm_judged/correctness, got 0.7');
    expect(issues[2].message).toContain("takes no human label");
    expect(issues[3].message).toContain("1 chunk labels but the row has 3 retrieved chunks");
  });

  it("refuses a cell that is not an object, and two names for one metric", () => {
    expect(parseHumanLabels("yes", where, null).issues[0].message).toContain("JSON object");
    expect(parseHumanLabels(["yes"], where, null).issues[0].message).toContain("object");
    const twice = parseHumanLabels({ groundedness: "yes", "response/llm_judged/groundedness": "no" }, where, null);
    expect(twice.issues[0].message).toContain("both name response/llm_judged/groundedness");
  });
});

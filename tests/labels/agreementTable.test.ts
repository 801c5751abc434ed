import { describe, expect, it } from "vitest";
import type { JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import { formatAgreementTable, humanLabelCells, humanLabelColumn } from "@/lib/labels/agreementTable";
import { withHumanLabels } from "@/lib/labels/exportLabels";
import { summarizeAgreement, summarizeScoreAgreement } from "@/lib/stats";

const judge = (metric: string, counts: [number, number, number, number], errors: number): JudgeAgreement => ({
  ...summarizeAgreement({ yesYes: counts[0], yesNo: counts[1], noYes: counts[2], noNo: counts[3] }, errors),
  metric,
  kind: "rating",
  perChunk: false,
  unjudged: 0,
  otherResponse: 0,
  scores: null,
});

describe("agreement for the CLI and exports", () => {
  it("prints κ with its interval, the matrix and errors, and says why κ is undefined", () => {
    const table = formatAgreementTable([
      judge("response/llm_judged/groundedness", [20, 5, 10, 15], 2),
      judge("response/llm_judged/safety", [7, 0, 0, 0], 0),
      judge("response/llm_judged/correctness", [0, 0, 0, 0], 0),
      {
        ...judge("response/llm_judged/faithfulness", [1, 0, 1, 2], 0),
        kind: "score",
        scores: summarizeScoreAgreement([
          { judge: 0.1, human: 0.2 },
          { judge: 0.4, human: 0.3 },
          { judge: 0.4, human: 0.8 },
          { judge: 0.9, human: 0.7 },
        ]),
      },
    ]);
    const lines = table.split("\n");
    // κ .4 [.15, .65] worked by hand in tests/stats/agreement.test.ts.
    expect(lines[1]).toMatch(
      /^response\/llm_judged\/groundedness\s+50\s+2\s+70\.0 %\s+0\.40 \[0\.15, 0\.65\]\s+20 5 10 15$/,
    );
    expect(lines[2]).toContain('undefined (the judge and the labels both say "yes" on every labelled row');
    // A labelled metric the run did not judge is left out.
    expect(table).not.toContain("correctness");
    expect(lines[3]).toMatch(/0\.63\s+0\.200$/);
    expect(lines.at(-1)).toContain("Fleiss, Cohen & Everitt");
    expect(formatAgreementTable([])).toContain("No human labels");
  });

  it("export cells: one …/human_label column per metric, per-chunk labels as a list by position", () => {
    const base = {
      rowId: "r",
      labelledBy: null,
      reason: null,
      statedBy: null,
      labelledAt: "",
      source: "ui",
      revision: 1,
    };
    const cells = humanLabelCells([
      {
        ...base,
        metric: "response/llm_judged/groundedness",
        chunkPosition: -1,
        kind: "rating",
        rating: "no",
        score: null,
      },
      {
        ...base,
        metric: "retrieval/llm_judged/chunk_relevance",
        chunkPosition: 2,
        kind: "rating",
        rating: "yes",
        score: null,
      },
      {
        ...base,
        metric: "response/llm_judged/faithfulness",
        chunkPosition: -1,
        kind: "score",
        rating: null,
        score: 0.75,
      },
    ]);
    expect(cells).toEqual({
      [humanLabelColumn("response/llm_judged/groundedness")]: "no",
      "retrieval/llm_judged/chunk_relevance/human_label": [null, null, "yes"],
      "response/llm_judged/faithfulness/human_label": 0.75,
    });
  });
});

describe("label columns in exports", () => {
  it("puts <metric>/human_label after each judged metric's last column, none for computed metrics", () => {
    const metrics = ["response/llm_judged/groundedness", "retrieval/ground_truth/document_recall"];
    const record = {
      request_id: "q1",
      "response/llm_judged/groundedness/rating": "yes",
      "response/llm_judged/groundedness/rationale": "…",
      "retrieval/ground_truth/document_recall/recall": 1,
    };
    const base = {
      rowId: "r",
      labelledBy: null,
      reason: null,
      statedBy: null,
      labelledAt: "",
      source: "ui",
      revision: 1,
      score: null,
    };
    const labelled = withHumanLabels(record, metrics, [
      { ...base, metric: "response/llm_judged/groundedness", chunkPosition: -1, kind: "rating", rating: "no" },
    ]);
    expect(Object.entries(labelled)).toEqual([
      ["request_id", "q1"],
      ["response/llm_judged/groundedness/rating", "yes"],
      ["response/llm_judged/groundedness/rationale", "…"],
      ["response/llm_judged/groundedness/human_label", "no"],
      ["retrieval/ground_truth/document_recall/recall", 1],
    ]);
    expect(withHumanLabels(record, metrics, [])["response/llm_judged/groundedness/human_label"]).toBeNull();
  });
});

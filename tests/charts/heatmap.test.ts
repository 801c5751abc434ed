import { describe, expect, it } from "vitest";
import { prepareHeatmap } from "@/lib/charts/heatmap";
import { CHART_COLORS } from "@/lib/charts/palette";

describe("prepareHeatmap", () => {
  const heatmap = {
    totalRows: 120,
    previousFrom: null,
    nextFrom: 51,
    maxPosition: 2,
    rows: [
      {
        rowId: "a",
        rowNumber: 1,
        requestId: "q-1",
        precision: 0.5,
        recall: 1,
        cells: [
          { position: 0, verdict: "yes" as const, expected: true },
          { position: 1, verdict: "no" as const, expected: false },
          { position: 2, verdict: "error" as const, expected: false },
        ],
      },
      {
        rowId: "b",
        rowNumber: 2,
        requestId: "q-2",
        precision: null,
        recall: null,
        cells: [{ position: 0, verdict: null, expected: false }],
      },
      { rowId: "c", rowNumber: 3, requestId: "q-3", precision: null, recall: null, cells: [] },
    ],
  };

  it("makes a full rows × positions grid with a colour per verdict and the expected marker", () => {
    const model = prepareHeatmap(heatmap, { runId: "run1" });
    expect(model.columnCount).toBe(3);
    // The narrow label shows what tells the rows apart; the whole id stays in the hover title.
    expect(model.rows.map((row) => row.shortRequestId)).toEqual(["…1", "…2", "…3"]);
    expect(model.rows[0].title).toContain("(q-1)");
    expect(model.rows[0].cells.map((c) => [c.state, c.color, c.expected])).toEqual([
      ["yes", CHART_COLORS.verdictYes, true],
      ["no", CHART_COLORS.verdictNo, false],
      ["error", CHART_COLORS.verdictError, false],
    ]);
    // Row 2 retrieved one chunk, not judged: a light grey square, then two positions with no chunk at all.
    expect(model.rows[1].cells.map((c) => [c.state, c.color])).toEqual([
      ["unjudged", CHART_COLORS.verdictAbsent],
      ["none", null],
      ["none", null],
    ]);
    // Row 3 retrieved nothing: flagged, so the grid can say so instead of drawing a blank line.
    expect(model.rows.map((row) => row.noChunks)).toEqual([false, false, true]);
    expect(model.rows[2].title).toBe("Row 3 (q-3): no retrieved chunks");
  });

  it("writes titles, precision and recall text, links and a caption", () => {
    const model = prepareHeatmap(heatmap, { runId: "run1" });
    expect(model.rows[0].cells[0].title).toBe("Row 1 (q-1), chunk #1: relevant · expected document");
    expect(model.rows[0].cells[2].title).toBe("Row 1 (q-1), chunk #3: judge error");
    expect(model.rows[1].cells[2].title).toBe("Row 2 (q-2), chunk #3: not retrieved");
    expect(model.rows[0]).toMatchObject({
      label: "#1",
      precisionText: "50%",
      recallText: "100%",
      href: "/runs/run1/rows/a",
    });
    expect(model.rows[1]).toMatchObject({ precisionText: "—", recallText: "—" });
    expect(model.caption).toBe("Rows 1–3 of 120, by row number");
    expect(model.emptyMessage).toBeNull();
    expect(prepareHeatmap(heatmap).rows[0].href).toBeNull();
  });

  it("carries the rows table's filter on each row link, so j / k / n stay within it", () => {
    const filter = { filter: "failed" as const, metric: "retrieval/llm_judged/chunk_relevance", q: "refund" };
    expect(prepareHeatmap(heatmap, { runId: "run1", filter }).rows[0].href).toBe(
      "/runs/run1/rows/a?filter=failed&metric=retrieval%2Fllm_judged%2Fchunk_relevance&q=refund",
    );
  });

  it("explains an empty page and rows without chunks", () => {
    expect(
      prepareHeatmap({ rows: [], maxPosition: -1, totalRows: 0, previousFrom: null, nextFrom: null }),
    ).toMatchObject({
      rows: [],
      columnCount: 0,
      caption: null,
      emptyMessage: expect.stringMatching(/no rows/),
    });
    const noChunks = prepareHeatmap({
      rows: [{ rowId: "a", rowNumber: 1, requestId: "q", precision: null, recall: null, cells: [] }],
      maxPosition: -1,
      totalRows: 1,
      previousFrom: null,
      nextFrom: null,
    });
    expect(noChunks.emptyMessage).toMatch(/retrieved chunks/);
    expect(noChunks.rows).toEqual([]);
  });
});

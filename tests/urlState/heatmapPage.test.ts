import { describe, expect, it } from "vitest";
import { heatmapHref, heatmapJumpForm, parseHeatmapFrom } from "@/lib/urlState/heatmapPage";

describe("the heatmap's page in the run page's URL", () => {
  it("starts at a positive whole row number, and at row 1 for anything else", () => {
    expect(parseHeatmapFrom({ heatmap: "51" })).toBe(51);
    expect(parseHeatmapFrom({ heatmap: ["101", "7"] })).toBe(101);
    for (const raw of [undefined, "", "0", "-5", "2.5", "abc", "1e3", "99999999999"])
      expect(parseHeatmapFrom({ heatmap: raw }), String(raw)).toBe(1);
  });

  it("moves the heatmap and keeps the rows table's filter, sort and page", () => {
    expect(
      heatmapHref(
        "run-1",
        { filter: "failed", metric: "response/llm_judged/correctness", page: "3", heatmap: "1" },
        51,
      ),
    ).toBe("/runs/run-1?filter=failed&metric=response%2Fllm_judged%2Fcorrectness&page=3&heatmap=51#chunk-heatmap");
    // Back to the first page: the parameter is dropped, not set to 1.
    expect(heatmapHref("run-1", { heatmap: "51" }, 1)).toBe("/runs/run-1#chunk-heatmap");
  });
});

describe("the heatmap's jump to a row", () => {
  it("keeps every other parameter as a hidden field and comes back to the heatmap", () => {
    expect(heatmapJumpForm("run-1", { filter: "failed", q: ["a", "b"], heatmap: "51" })).toEqual({
      action: "/runs/run-1#chunk-heatmap",
      name: "heatmap",
      hidden: [
        ["filter", "failed"],
        ["q", "a"],
        ["q", "b"],
      ],
    });
  });
});

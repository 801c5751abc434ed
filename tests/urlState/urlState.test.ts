import { describe, expect, it } from "vitest";
import {
  compareExportHref,
  compareListHref,
  compareHref,
  compareParams,
  compareRowHref,
  parseCompareQuery,
  parseCompareRowQuery,
  withoutRuns,
} from "@/lib/urlState/compareQuery";
import { datasetRowParams, parseDatasetRowQuery } from "@/lib/urlState/datasetRowQuery";
import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { clampPage, MAX_PAGE_SIZE, pageCountOf, PAGE_SIZES } from "@/lib/contract/pagination";
import {
  describeRowPlace,
  describeRunRowFilter,
  parseRunRowQuery,
  runRowHref,
  runRowParams,
  runRowsHref,
  runRowsViewHref,
} from "@/lib/urlState/runRowQuery";
import { allValues, firstValue, firstValues, searchParamsOf } from "@/lib/urlState/searchParams";
import { withParams } from "@/lib/urlState/withParams";

describe("search parameters", () => {
  it("take the first of a repeated key, and list every value when asked", () => {
    expect(firstValue(["a", "b"])).toBe("a");
    expect(firstValue("a")).toBe("a");
    expect(firstValue(undefined)).toBeUndefined();
    expect(allValues(undefined)).toEqual([]);
    expect(allValues("a")).toEqual(["a"]);
    expect(firstValues({ page: ["2", "3"], q: "x", sort: undefined })).toEqual({ page: "2", q: "x", sort: undefined });
  });

  it("read a route handler's URL into the shape a page receives", () => {
    const params = searchParamsOf(new URL("http://localhost/compare/export?runs=a&runs=b&format=json"));
    expect(params).toEqual({ runs: ["a", "b"], format: ["json"] });
    expect(parseCompareQuery(params).runs).toEqual(["a", "b"]);
  });

  it("build links with changed parameters, leaving out empty ones", () => {
    expect(withParams("/runs/r1", { filter: "failed", metric: undefined, q: "" }, { page: 2 })).toBe(
      "/runs/r1?filter=failed&page=2",
    );
    expect(withParams("/runs/r1", { q: "a b&c" }, {})).toBe("/runs/r1?q=a+b%26c");
    expect(withParams("/runs/r1", { q: "x" }, { q: "" })).toBe("/runs/r1");
  });
});

describe("pagination", () => {
  it("caps the page size to the offered sizes and the page to a positive number", () => {
    expect(MAX_PAGE_SIZE).toBe(100);
    expect(parseRunRowQuery({ pageSize: "100", page: "3" })).toMatchObject({ pageSize: 100, page: 3 });
    for (const pageSize of ["1000", "26", "abc", "-25"])
      expect(parseRunRowQuery({ pageSize }).pageSize).toBe(PAGE_SIZES[0]);
    for (const page of ["0", "-1", "1.5", "x", "100001"]) expect(parseDatasetRowQuery({ page }).page).toBe(1);
  });

  it("shows the last page for a page past the end, and page 1 of 1 for an empty table", () => {
    expect(pageCountOf(1000, 25)).toBe(40);
    expect(pageCountOf(1001, 25)).toBe(41);
    expect(pageCountOf(0, 25)).toBe(1);
    expect(clampPage(999, 1000, 25)).toBe(40);
    expect(clampPage(7, 1000, 25)).toBe(7);
    expect(clampPage(3, 0, 25)).toBe(1);
  });
});

describe("the dataset rows query", () => {
  it("falls back to safe defaults and keeps only known sorts", () => {
    expect(parseDatasetRowQuery({})).toEqual({ page: 1, pageSize: 25, sort: "rowNumber", dir: "asc", q: "" });
    expect(parseDatasetRowQuery({ sort: "latencySeconds", dir: "desc", q: ["refund", "other"] })).toMatchObject({
      sort: "latencySeconds",
      dir: "desc",
      q: "refund",
    });
    expect(parseDatasetRowQuery({ sort: "password", dir: "sideways", q: "x".repeat(201) })).toMatchObject({
      sort: "rowNumber",
      dir: "asc",
      q: "",
    });
  });

  it("gives its links the parameters in the order the table has always used", () => {
    expect(Object.keys(datasetRowParams(parseDatasetRowQuery({ q: "a", sort: "requestId" })))).toEqual([
      "page",
      "pageSize",
      "sort",
      "dir",
      "q",
    ]);
  });
});

describe("the run rows query", () => {
  it("falls back to every row, and keeps a metric only as a filter", () => {
    expect(parseRunRowQuery({})).toEqual({
      page: 1,
      pageSize: 25,
      filter: "all",
      metric: undefined,
      q: "",
      sort: "rowNumber",
      dir: "asc",
    });
    expect(parseRunRowQuery({ filter: "failed", metric: "response/llm_judged/correctness" })).toMatchObject({
      filter: "failed",
      metric: "response/llm_judged/correctness",
    });
    expect(parseRunRowQuery({ filter: "exploded", sort: "requestText" })).toMatchObject({
      filter: "all",
      sort: "rowNumber",
    });
  });

  it("carries the filter into a row and back to the table", () => {
    const query = parseRunRowQuery({ filter: "failed", metric: "m/x", q: "refund", page: "4" });
    expect(runRowHref("r1", "row9", query)).toBe("/runs/r1/rows/row9?filter=failed&metric=m%2Fx&q=refund&page=4");
    expect(runRowsHref("r1", query)).toBe("/runs/r1?filter=failed&metric=m%2Fx&q=refund&page=4#rows");
    expect(Object.keys(runRowParams(query))).toEqual(["filter", "metric", "q", "sort", "dir", "page", "pageSize"]);
  });

  it("keeps a metric only with a filter it narrows, so the filter shown is the filter applied", () => {
    expect(parseRunRowQuery({ filter: "errored", metric: "m/x" }).metric).toBe("m/x");
    expect(parseRunRowQuery({ filter: "all", metric: "m/x" }).metric).toBeUndefined();
    expect(parseRunRowQuery({ filter: "passed", metric: "m/x" }).metric).toBeUndefined();
    expect(parseRunRowQuery({ metric: "m/x" }).metric).toBeUndefined();
  });

  it("clears one part of the filter at a time, keeping sort and page size and starting at page 1", () => {
    const query = parseRunRowQuery({
      filter: "failed",
      metric: "response/llm_judged/groundedness",
      q: "refund",
      sort: "requestId",
      page: "3",
      pageSize: "50",
    });
    const base = "/runs/r1?";
    const kept = "sort=requestId&dir=asc&pageSize=50#rows";
    expect(runRowsViewHref("r1", query, { filter: "all" })).toBe(`${base}filter=all&q=refund&${kept}`);
    expect(runRowsViewHref("r1", query, { metric: undefined })).toBe(`${base}filter=failed&q=refund&${kept}`);
    expect(runRowsViewHref("r1", query, { q: "" })).toBe(
      `${base}filter=failed&metric=response%2Fllm_judged%2Fgroundedness&${kept}`,
    );
    expect(runRowsViewHref("r1", query, { filter: "errored" })).toContain(
      "filter=errored&metric=response%2Fllm_judged%2Fgroundedness",
    );
  });

  it("says in words which rows a view holds and where a row stands in it", () => {
    const groundedness = { filter: "failed" as const, metric: "response/llm_judged/groundedness", q: "" };
    expect(describeRunRowFilter(groundedness)).toBe("failed on groundedness");
    expect(describeRunRowFilter({ filter: "failed", q: "" })).toBe("failed on any metric");
    expect(describeRunRowFilter({ filter: "all", q: " refund " })).toBe("all rows matching “refund”");
    expect(describeRunRowFilter({ filter: "errored", metric: "retrieval/llm_judged/chunk_relevance", q: "" })).toBe(
      "errored on chunk_relevance",
    );
    expect(describeRowPlace(groundedness, { index: 12, total: 322 })).toBe("failed on groundedness · 12 of 322");
    expect(describeRowPlace({ filter: "all", q: "" }, { index: 1200, total: 20000 })).toBe(
      "all rows · 1,200 of 20,000",
    );
    expect(describeRowPlace(groundedness, { index: null, total: 322 })).toBe(
      "not in failed on groundedness (322 rows)",
    );
  });
});

describe("the compare query", () => {
  it("reads runs repeated or comma-separated, without duplicates, and at most eight", () => {
    expect(parseCompareQuery({ runs: ["a,b", "c", "a"], baseline: "b" })).toMatchObject({
      runs: ["a", "b", "c"],
      baseline: "b",
      page: 1,
    });
    expect(parseCompareQuery({ runs: " a , ,b" }).runs).toEqual(["a", "b"]);
    expect(parseCompareQuery({ runs: Array.from({ length: 9 }, (_, i) => `r${i}`).join(",") }).runs).toEqual([]);
    expect(parseCompareQuery({ runs: "a,b", baseline: "", direction: "sideways", page: "2" })).toMatchObject({
      baseline: undefined,
      direction: undefined,
      page: 2,
    });
  });

  it("builds the links the compare pages have always had", () => {
    expect(compareHref(["a", "b"], { baseline: "a" })).toBe("/compare?runs=a,b&baseline=a");
    expect(compareHref(["a", "b", "c"], { baseline: "a", candidate: "c", hash: "flips" })).toBe(
      "/compare?runs=a,b,c&baseline=a&candidate=c#flips",
    );
    expect(compareExportHref(["a", "b"], "csv")).toBe("/compare/export?runs=a,b&format=csv");
    const query = parseCompareQuery({ runs: "a,b", metric: "m", page: "2" });
    expect(compareParams(query, "a", "b")).toEqual({
      runs: "a,b",
      baseline: "a",
      candidate: "b",
      metric: "m",
      direction: undefined,
      page: 2,
    });
  });

  it("drops runs that no longer exist, with a baseline or candidate that was one of them", () => {
    const query = parseCompareQuery({ runs: "a,gone,b", baseline: "gone", candidate: "b", page: "2" });
    expect(withoutRuns(query, ["gone"])).toEqual({ ...query, runs: ["a", "b"], baseline: undefined });
    expect(withoutRuns(query, ["b"])).toMatchObject({ runs: ["a", "gone"], baseline: "gone", candidate: undefined });
    expect(withoutRuns(query, [])).toBe(query);
  });

  it("needs baseline, candidate and row for one row side by side", () => {
    expect(parseCompareRowQuery({ baseline: "a", candidate: "b" })).toBeNull();
    expect(parseCompareRowQuery({ baseline: "a", candidate: "b", row: "" })).toBeNull();
    const query = parseCompareRowQuery({ baseline: ["a", "z"], candidate: "b", row: "r", metric: "m/x" });
    expect(query).toEqual({ baseline: "a", candidate: "b", row: "r", metric: "m/x" });
    expect(compareRowHref(query!)).toBe("/compare/row?baseline=a&candidate=b&row=r&metric=m%2Fx");
  });

  it("carries the flip list's runs and filters to the row page and back to the list's page", () => {
    const query = parseCompareRowQuery({
      baseline: "a",
      candidate: "b",
      row: "r",
      metric: "m/x",
      runs: "a,b,c",
      listMetric: "m/x",
      direction: "regressions",
    })!;
    expect(compareRowHref(query)).toBe(
      "/compare/row?baseline=a&candidate=b&row=r&metric=m%2Fx&runs=a%2Cb%2Cc&listMetric=m%2Fx&direction=regressions",
    );
    expect(compareListHref(query, 51)).toBe(
      "/compare?runs=a%2Cb%2Cc&baseline=a&candidate=b&metric=m%2Fx&direction=regressions&page=2#flips",
    );
    expect(compareListHref({ baseline: "a", candidate: "b", row: "r" }, 3)).toBe(
      "/compare?runs=a%2Cb&baseline=a&candidate=b#flips",
    );
    expect(parseCompareRowQuery({ baseline: "a", candidate: "b", row: "r", direction: "sideways" })?.direction).toBe(
      undefined,
    );
  });
});

describe("the export format", () => {
  it("is json or csv, else the route's default", () => {
    expect(parseExportFormat({ format: "csv" }, "json")).toBe("csv");
    expect(parseExportFormat({ format: ["json", "csv"] }, "csv")).toBe("json");
    expect(parseExportFormat({ format: "xml" }, "csv")).toBe("csv");
    expect(parseExportFormat({}, "json")).toBe("json");
  });
});

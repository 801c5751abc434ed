import { describe, expect, it } from "vitest";
import {
  compareExportHref,
  compareHref,
  compareParams,
  compareRowHref,
  parseCompareQuery,
  parseCompareRowQuery,
} from "@/lib/urlState/compareQuery";
import { datasetRowParams, parseDatasetRowQuery } from "@/lib/urlState/datasetRowQuery";
import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { MAX_PAGE_SIZE, PAGE_SIZES } from "@/lib/urlState/pagination";
import {
  NEXT_FAILED_FILTER,
  parseRunRowQuery,
  runRowHref,
  runRowParams,
  runRowsHref,
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

  it("carries the filter into a row and back to the table, and n moves among failed rows", () => {
    const query = parseRunRowQuery({ filter: "failed", metric: "m/x", q: "refund", page: "4" });
    expect(runRowHref("r1", "row9", query)).toBe("/runs/r1/rows/row9?filter=failed&metric=m%2Fx&q=refund");
    expect(runRowsHref("r1", query)).toBe("/runs/r1?filter=failed&metric=m%2Fx&q=refund#rows");
    expect(runRowHref("r1", "row9", NEXT_FAILED_FILTER)).toBe("/runs/r1/rows/row9?filter=failed");
    expect(Object.keys(runRowParams(query))).toEqual(["filter", "metric", "q", "sort", "dir", "page", "pageSize"]);
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

  it("needs baseline, candidate and row for one row side by side", () => {
    expect(parseCompareRowQuery({ baseline: "a", candidate: "b" })).toBeNull();
    expect(parseCompareRowQuery({ baseline: "a", candidate: "b", row: "" })).toBeNull();
    const query = parseCompareRowQuery({ baseline: ["a", "z"], candidate: "b", row: "r", metric: "m/x" });
    expect(query).toEqual({ baseline: "a", candidate: "b", row: "r", metric: "m/x" });
    expect(compareRowHref(query!)).toBe("/compare/row?baseline=a&candidate=b&row=r&metric=m%2Fx");
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

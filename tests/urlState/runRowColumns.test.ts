import { describe, expect, it } from "vitest";
import {
  DEFAULT_METRIC_COLUMNS,
  describeRowPlace,
  parseRunRowQuery,
  runRowHref,
  runRowParams,
  runRowsHref,
  runRowsViewHref,
  shownMetricColumns,
} from "@/lib/urlState/runRowQuery";

/** A wide run: 18 metrics, as the all-score-metrics run a reviewer tried. */
const METRICS = Array.from({ length: 18 }, (_, i) => `m/metric_${i + 1}`);

describe("the rows table's metric columns and metric sort in the URL", () => {
  it("shows every metric of a narrow run, and a few of a wide one", () => {
    expect(shownMetricColumns(parseRunRowQuery({}, METRICS.slice(0, 4)), METRICS.slice(0, 4))).toEqual(
      METRICS.slice(0, 4),
    );
    const wide = shownMetricColumns(parseRunRowQuery({}, METRICS), METRICS);
    expect(wide.length).toBeLessThanOrEqual(DEFAULT_METRIC_COLUMNS);
    expect(wide).toEqual(METRICS.slice(0, 6));
  });

  it("puts the filtered metric's column first, even when it is not among the default few", () => {
    const query = parseRunRowQuery({ filter: "failed", metric: "m/metric_17" }, METRICS);
    expect(shownMetricColumns(query, METRICS)[0]).toBe("m/metric_17");
    expect(shownMetricColumns(query, METRICS)).toHaveLength(6);
  });

  it("reads the chosen columns from cols (comma-separated or repeated), in the run's order, dropping unknown names", () => {
    const query = parseRunRowQuery({ cols: ["m/metric_9,m/nope", "m/metric_2"] }, METRICS);
    expect(query.cols).toEqual(["m/metric_2", "m/metric_9"]);
    expect(shownMetricColumns(query, METRICS)).toEqual(["m/metric_2", "m/metric_9"]);
    expect(parseRunRowQuery({ cols: "m/nope" }, METRICS).cols).toBeUndefined();
  });

  it("keeps the columns and a metric sort on every link of the table", () => {
    const query = parseRunRowQuery({ cols: "m/metric_2", sort: "m/metric_3", dir: "desc" }, METRICS);
    expect(runRowParams(query)).toMatchObject({ cols: "m/metric_2", sort: "m/metric_3", dir: "desc" });
    const href = new URL(runRowsViewHref("r1", query, { filter: "failed" }), "http://x");
    expect(href.hash).toBe("#rows");
    expect(href.searchParams.get("cols")).toBe("m/metric_2");
    expect(href.searchParams.get("sort")).toBe("m/metric_3");
  });

  it("keeps a metric sort with every filter, the agreement ones included", () => {
    expect(parseRunRowQuery({ sort: "m/metric_3", filter: "disagrees" }, METRICS).sort).toBe("m/metric_3");
    const cell = { sort: "m/metric_3", dir: "desc", filter: "cell", metric: "m/metric_1", cell: "yes-no" };
    expect(parseRunRowQuery(cell, METRICS)).toMatchObject({ sort: "m/metric_3", dir: "desc" });
    expect(parseRunRowQuery({ sort: "m/metric_3", filter: "failed" }, METRICS).sort).toBe("m/metric_3");
  });

  it("shows the sorted metric's column even when the chosen or default columns leave it out, after the filtered one", () => {
    // By default it takes one of the six places (seven columns did not fit a 1280 px window).
    expect(shownMetricColumns(parseRunRowQuery({ sort: "m/metric_12" }, METRICS), METRICS)).toEqual([
      "m/metric_12",
      ...METRICS.slice(0, 5),
    ]);
    const filteredAndSorted = parseRunRowQuery(
      { sort: "m/metric_12", filter: "failed", metric: "m/metric_9" },
      METRICS,
    );
    expect(shownMetricColumns(filteredAndSorted, METRICS)).toEqual([
      "m/metric_9",
      "m/metric_12",
      ...METRICS.slice(0, 4),
    ]);
    const chosen = parseRunRowQuery(
      { cols: "m/metric_2", sort: "m/metric_9", filter: "failed", metric: "m/metric_5" },
      METRICS,
    );
    expect(shownMetricColumns(chosen, METRICS)).toEqual(["m/metric_5", "m/metric_9", "m/metric_2"]);
    // Already shown: not twice.
    expect(shownMetricColumns(parseRunRowQuery({ cols: "m/metric_2", sort: "m/metric_2" }, METRICS), METRICS)).toEqual([
      "m/metric_2",
    ]);
  });

  it("carries the table's sort, columns and page into a row and back, leaving out the defaults", () => {
    const query = parseRunRowQuery(
      {
        filter: "failed",
        metric: "m/metric_1",
        sort: "m/metric_3",
        dir: "desc",
        cols: "m/metric_2",
        page: "3",
        pageSize: "50",
      },
      METRICS,
    );
    const row = new URL(runRowHref("r1", "row9", query), "http://x");
    expect(Object.fromEntries(row.searchParams)).toEqual({
      filter: "failed",
      metric: "m/metric_1",
      sort: "m/metric_3",
      dir: "desc",
      cols: "m/metric_2",
      page: "3",
      pageSize: "50",
    });
    // The row page reads back the same view, and its way back is the table as it was.
    const again = parseRunRowQuery(Object.fromEntries(row.searchParams), METRICS);
    expect(again).toEqual(query);
    expect(runRowsHref("r1", again)).toBe(
      "/runs/r1?filter=failed&metric=m%2Fmetric_1&sort=m%2Fmetric_3&dir=desc&cols=m%2Fmetric_2&page=3&pageSize=50#rows",
    );
    expect(runRowHref("r1", "row9", parseRunRowQuery({}, METRICS))).toBe("/runs/r1/rows/row9?filter=all");
  });

  it("says in the row's place which order the count follows", () => {
    const place = { index: 2, total: 60 };
    const all = { filter: "all" as const, q: "" };
    expect(describeRowPlace({ ...all, sort: "m/metric_3", dir: "asc" }, place)).toBe(
      "all rows, sorted by metric_3, worst first · 2 of 60",
    );
    expect(describeRowPlace({ ...all, sort: "m/metric_3", dir: "desc" }, place)).toBe(
      "all rows, sorted by metric_3, best first · 2 of 60",
    );
    expect(describeRowPlace({ ...all, sort: "rowNumber", dir: "desc" }, place)).toBe(
      "all rows, last row first · 2 of 60",
    );
    expect(describeRowPlace({ ...all, sort: "rowNumber", dir: "asc" }, place)).toBe("all rows · 2 of 60");
  });
});

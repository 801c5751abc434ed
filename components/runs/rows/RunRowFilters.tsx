import Link from "next/link";
import { SearchBox } from "@/components/table/SearchBox";
import { Button } from "@/components/ui/Button";
import { MetricColumnChooser } from "./MetricColumnChooser";
import { METRIC_FILTERS, type RunRowFilter } from "@/lib/contract/rowQueries";
import { describeAgreementCell, metricShortName, runRowsViewHref, type RunRowQuery } from "@/lib/urlState/runRowQuery";

const LABELS: Record<RunRowQuery["filter"], string> = {
  all: "All rows",
  failed: "Failed",
  errored: "Errored",
  passed: "Passed all",
  flaky: "Flaky (trials disagree)",
  disagrees: "Judge disagrees with label",
  "people-differ": "People differ",
  cell: "Confusion cell",
};

const METRIC_FILTER_WORDS: Partial<Record<RunRowQuery["filter"], string>> = {
  errored: "Errored on",
  disagrees: "Disagrees on",
  "people-differ": "People differ on",
  flaky: "Flaky on",
};

/**
 * The tabs; a confusion cell is reached from the agreement panel, not picked here; flaky only with trials,
 * people differ only where several people labelled.
 */
const TABS = (Object.keys(LABELS) as RunRowQuery["filter"][]).filter((filter) => filter !== "cell");

/**
 * Filter tabs, the per-metric filter and search, and a line that says which of
 * them apply, each with one click to clear it. Every control is a link or a GET
 * form, so every view has a URL; the controls are keyed by the URL's values so
 * that a client-side navigation (a metric card, a chip) shows the new ones.
 */
export function RunRowFilters({
  runId,
  query,
  metrics,
  shownColumns,
  trials = 1,
  severalLabellers = false,
}: {
  runId: string;
  query: RunRowQuery;
  /** The run's trials: the flaky tab shows only when each row was judged more than once. */
  trials?: number;
  /** Whether several people labelled rows of the dataset: the people-differ tab shows only then. */
  severalLabellers?: boolean;
  metrics: { name: string; short: string }[];
  /** The metric columns the table shows (the column chooser's ticks). */
  shownColumns: string[];
}) {
  const pathname = `/runs/${runId}`;
  const metricFilter = METRIC_FILTERS.includes(query.filter) && query.filter !== "cell" ? query.filter : "failed";
  return (
    <div className="border-b border-slate-200" data-testid="row-filters">
      <div className="flex flex-wrap items-center gap-2 px-3 py-2">
        <nav className="flex gap-1 text-sm" aria-label="Row filter">
          {TABS.filter(
            (filter) =>
              (filter !== "flaky" || trials > 1) &&
              (filter !== "people-differ" || severalLabellers || query.filter === filter),
          ).map((filter) => (
            <Link
              prefetch={false}
              key={filter}
              href={runRowsViewHref(runId, query, { filter })}
              aria-current={query.filter === filter ? "page" : undefined}
              data-focus-key={`tab-${filter}`}
              className={`rounded px-2 py-1 ${query.filter === filter ? "bg-slate-800 text-white" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {LABELS[filter]}
            </Link>
          ))}
        </nav>
        <form
          key={`${query.filter}:${query.metric ?? ""}`}
          action={`${pathname}#rows`}
          method="get"
          className="flex items-center gap-1 text-sm"
        >
          <input type="hidden" name="filter" value={metricFilter} />
          {query.q && <input type="hidden" name="q" value={query.q} />}
          <input type="hidden" name="pageSize" value={query.pageSize} />
          <input type="hidden" name="sort" value={query.sort} />
          <input type="hidden" name="dir" value={query.dir} />
          {query.cols && <input type="hidden" name="cols" value={query.cols.join(",")} />}
          <label className="text-xs text-slate-500" htmlFor="metric-filter">
            {METRIC_FILTER_WORDS[metricFilter] ?? "Failed on"}
          </label>
          <select
            id="metric-filter"
            name="metric"
            defaultValue={query.metric ?? ""}
            data-focus-key="metric-filter"
            className="rounded border border-slate-300 px-1 py-1 text-sm"
          >
            <option value="">any metric</option>
            {metrics.map((m) => (
              <option key={m.name} value={m.name}>
                {m.short}
              </option>
            ))}
          </select>
          <Button size="sm" data-focus-key="metric-filter-submit">
            Show
          </Button>
        </form>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <MetricColumnChooser runId={runId} query={query} metrics={metrics} shown={shownColumns} />
          <SearchBox
            action={pathname}
            q={query.q}
            keep={{
              filter: query.filter,
              metric: query.metric,
              sort: query.sort,
              dir: query.dir,
              pageSize: query.pageSize,
              cols: query.cols?.join(","),
            }}
            placeholder="Search rows"
            hash="#rows"
            focusKey="row-search"
          />
        </div>
      </div>
      <FilterSummary runId={runId} query={query} />
    </div>
  );
}

/** "Filtered: failed × on groundedness × matching “refund” ×": what the table shows, each part one click from gone. */
function FilterSummary({ runId, query }: { runId: string; query: RunRowQuery }) {
  const chips: { key: string; text: string; clear: string; clears: Partial<RunRowFilter> }[] = [];
  if (query.filter !== "all")
    chips.push({
      key: "filter",
      text:
        query.filter === "cell" && query.cell ? describeAgreementCell(query.cell) : LABELS[query.filter].toLowerCase(),
      clear: "Clear the filter",
      clears: { filter: "all" },
    });
  if (query.metric)
    chips.push({
      key: "metric",
      text: `on ${metricShortName(query.metric)}`,
      clear: "Clear the metric",
      clears: { metric: undefined },
    });
  if (query.q) chips.push({ key: "q", text: `matching “${query.q}”`, clear: "Clear the search", clears: { q: "" } });
  return (
    <p
      className="flex flex-wrap items-center gap-1.5 px-3 pb-2 text-xs text-slate-600"
      data-testid="row-filter-summary"
      aria-live="polite"
      // A metric card's jump lands the focus here (useKeepFocus): the next Tab reaches the chips, then the rows.
      tabIndex={-1}
      data-focus-key="row-filter-summary"
    >
      {chips.length === 0 ? (
        <span>Showing all rows</span>
      ) : (
        <>
          <span>Filtered:</span>
          {chips.map((chip) => (
            <Link
              prefetch={false}
              key={chip.key}
              href={runRowsViewHref(runId, query, chip.clears)}
              aria-label={`${chip.text}: ${chip.clear.toLowerCase()}`}
              title={chip.clear}
              data-chip={chip.key}
              className={`inline-flex items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 px-2 py-0.5 text-indigo-900 hover:border-indigo-400`}
            >
              {chip.text}
              <span aria-hidden className="text-indigo-700">
                ×
              </span>
            </Link>
          ))}
          {chips.length > 1 && (
            <Link
              prefetch={false}
              href={runRowsViewHref(runId, query, { filter: "all", metric: undefined, q: "" })}
              className={`ml-1 text-indigo-700 underline-offset-2 hover:underline`}
            >
              Clear all
            </Link>
          )}
        </>
      )}
    </p>
  );
}

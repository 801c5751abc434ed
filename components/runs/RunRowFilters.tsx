import Link from "next/link";
import { SearchBox } from "@/components/table/SearchBox";
import { Button } from "@/components/ui/Button";
import { withParams } from "@/lib/urlState/withParams";
import type { RunRowQuery } from "@/lib/urlState/runRowQuery";

const LABELS: Record<RunRowQuery["filter"], string> = {
  all: "All rows",
  failed: "Failed any",
  errored: "Errored",
  passed: "Passed all",
};

/** Filter tabs, the per-metric failure filter and search; each is a link or a GET form, so every view has a URL. */
export function RunRowFilters({
  runId,
  query,
  metrics,
}: {
  runId: string;
  query: RunRowQuery;
  metrics: { name: string; short: string }[];
}) {
  const pathname = `/runs/${runId}`;
  const keep = { q: query.q, pageSize: query.pageSize };
  return (
    <div className="flex flex-wrap items-center gap-2 px-3 py-2">
      <nav className="flex gap-1 text-sm" aria-label="Row filter">
        {(Object.keys(LABELS) as RunRowQuery["filter"][]).map((filter) => (
          <Link
            key={filter}
            href={withParams(pathname, keep, { filter }) + "#rows"}
            aria-current={query.filter === filter && !query.metric ? "page" : undefined}
            className={`rounded px-2 py-1 ${query.filter === filter && !query.metric ? "bg-slate-800 text-white" : "text-slate-600 hover:bg-slate-100"}`}
          >
            {LABELS[filter]}
          </Link>
        ))}
      </nav>
      <form action={pathname} method="get" className="flex items-center gap-1 text-sm">
        <input type="hidden" name="filter" value="failed" />
        <label className="text-xs text-slate-500" htmlFor="metric-filter">
          Failed on
        </label>
        <select
          id="metric-filter"
          name="metric"
          defaultValue={query.metric ?? ""}
          className="rounded border border-slate-300 px-1 py-1 text-sm"
        >
          <option value="">any metric</option>
          {metrics.map((m) => (
            <option key={m.name} value={m.name}>
              {m.short}
            </option>
          ))}
        </select>
        <Button size="sm">Show</Button>
      </form>
      <div className="ml-auto">
        <SearchBox
          action={pathname}
          q={query.q}
          keep={{ filter: query.filter, metric: query.metric }}
          placeholder="Search rows"
        />
      </div>
    </div>
  );
}

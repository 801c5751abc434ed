import { Button } from "@/components/ui/Button";
import type { RunRowQuery } from "@/lib/urlState/runRowQuery";

/**
 * Which metric columns the rows table shows: a GET form of checkboxes (each a
 * `cols` value), so the choice lives in the URL, can be linked, and works
 * without JavaScript. With many metrics the table shows a few by default and
 * Request / Response keep a readable width.
 */
export function MetricColumnChooser({
  runId,
  query,
  metrics,
  shown,
}: {
  runId: string;
  query: RunRowQuery;
  metrics: { name: string; short: string }[];
  shown: string[];
}) {
  const keep = {
    filter: query.filter,
    metric: query.metric,
    cell: query.cell,
    q: query.q,
    sort: query.sort,
    dir: query.dir,
  };
  return (
    <details className="relative text-sm" data-testid="column-chooser">
      <summary
        className="cursor-pointer rounded border border-slate-300 px-2 py-1 text-xs text-slate-700 hover:bg-slate-50"
        data-focus-key="columns"
      >
        Metric columns ({shown.length} of {metrics.length})
      </summary>
      <form
        action={`/runs/${runId}#rows`}
        method="get"
        className="absolute right-0 z-20 mt-1 w-72 rounded border border-slate-200 bg-white p-2 shadow-lg"
      >
        {Object.entries(keep).map(([key, value]) =>
          value ? <input key={key} type="hidden" name={key} value={value} /> : null,
        )}
        <input type="hidden" name="pageSize" value={query.pageSize} />
        <fieldset>
          <legend className="mb-1 text-xs text-slate-500">Show these metrics as columns</legend>
          <div className="max-h-72 space-y-0.5 overflow-y-auto">
            {metrics.map((metric) => (
              <label key={metric.name} className="flex items-center gap-2 text-xs" title={metric.name}>
                <input type="checkbox" name="cols" value={metric.name} defaultChecked={shown.includes(metric.name)} />
                {metric.short}
              </label>
            ))}
          </div>
        </fieldset>
        <Button size="sm" className="mt-2 text-xs" data-focus-key="columns-apply">
          Show columns
        </Button>
      </form>
    </details>
  );
}

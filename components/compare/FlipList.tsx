import Link from "next/link";
import { compareRowHref } from "@/lib/urlState/compareQuery";
import { withParams, type ParamValues } from "@/lib/urlState/withParams";
import { Button, LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import type { Flip } from "@/lib/db/judgments/compareQueries";
import { formatInteger, formatMetricValue } from "@/lib/charts/format";
import { scoreDirection } from "@/lib/contract/metricCatalog";

/**
 * Rows whose verdict changed between baseline and candidate: a yes/no rating that changed, or a score that
 * crossed its pass mark (pass → fail, with both scores and the pass mark). Regressions first. Each opens both
 * runs side by side.
 */
export function FlipList({
  flips,
  total,
  page,
  pageSize,
  params,
  baselineId,
  candidateId,
  metrics,
}: {
  flips: Flip[];
  total: number;
  page: number;
  pageSize: number;
  params: ParamValues;
  baselineId: string;
  candidateId: string;
  metrics: string[];
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return (
    <CardFrame padding="none" id="flips" data-testid="flip-list">
      <div className="flex flex-wrap items-center gap-2 px-3 py-2">
        <h2 className="text-sm font-semibold">
          Flipped rows <span className="font-normal text-slate-500">({formatInteger(total)})</span>
        </h2>
        <form action="/compare" method="get" className="ml-auto flex items-center gap-1 text-sm">
          {Object.entries(params)
            .filter(([key]) => !["metric", "direction", "page"].includes(key))
            .map(([key, value]) =>
              value === undefined
                ? null
                : String(value)
                    .split(",")
                    .map((v) => <input key={`${key}-${v}`} type="hidden" name={key} value={v} />),
            )}
          <select
            name="metric"
            defaultValue={String(params.metric ?? "")}
            className="rounded border border-slate-300 px-1 py-1"
            aria-label="Metric"
          >
            <option value="">every metric</option>
            {metrics.map((m) => (
              <option key={m} value={m}>
                {m.startsWith("pairwise/") ? `pairwise: ${m.split("/").pop()}` : m.split("/").pop()}
              </option>
            ))}
          </select>
          <select
            name="direction"
            defaultValue={String(params.direction ?? "")}
            className="rounded border border-slate-300 px-1 py-1"
            aria-label="Direction"
          >
            <option value="">regressions and improvements</option>
            <option value="regressions">regressions (yes → no, pass → fail; pairwise: B lost)</option>
            <option value="improvements">improvements (no → yes, fail → pass; pairwise: B won)</option>
          </select>
          <Button size="sm">Filter</Button>
        </form>
      </div>
      <table className="w-full text-sm">
        <tbody className="divide-y divide-slate-100">
          {flips.map((flip) => (
            <tr
              key={`${flip.rowId}-${flip.metric}`}
              className="hover:bg-slate-50"
              data-testid="flip"
              data-kind={flip.kind}
              data-metric={flip.metric}
            >
              <td className="w-28 px-3 py-1.5">
                <span
                  className={`whitespace-nowrap rounded px-1.5 py-0.5 text-[11px] font-medium ${flip.regression ? "bg-rose-100 text-rose-800" : "bg-emerald-100 text-emerald-800"}`}
                >
                  {/* A pairwise criterion's row is the judge's verdict on the pair, not a change between runs. */}
                  {flip.metric.startsWith("pairwise/") ? flip.candidate : `${flip.baseline} → ${flip.candidate}`}
                </span>
              </td>
              <td className="px-3 py-1.5 text-xs text-slate-500">
                {flip.metric.split("/").pop()}
                {flip.kind === "success" && (
                  <span className="block tabular-nums" data-testid="flip-scores">
                    {describeScoreFlip(flip)}
                  </span>
                )}
              </td>
              <td className="px-3 py-1.5">
                <code className="font-mono text-xs">{flip.requestId}</code>
              </td>
              <td className="px-3 py-1.5">
                <Link
                  prefetch={false}
                  href={compareRowHref({
                    baseline: baselineId,
                    candidate: candidateId,
                    row: flip.rowId,
                    metric: flip.metric,
                    // The list it was opened from, so j / k / n on the row page step through these flips in order.
                    runs: params.runs === undefined ? undefined : String(params.runs),
                    listMetric: params.metric === undefined ? undefined : String(params.metric),
                    direction:
                      params.direction === "regressions" || params.direction === "improvements"
                        ? params.direction
                        : undefined,
                  })}
                  className="text-indigo-700 hover:underline"
                >
                  {flip.requestText}
                </Link>
              </td>
            </tr>
          ))}
          {flips.length === 0 && (
            <tr>
              <td className="px-3 py-6 text-center text-slate-500">
                No row changed its verdict or crossed its pass mark{params.metric ? " on this metric" : ""}.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="flex items-center justify-end gap-2 border-t border-slate-200 px-3 py-2 text-xs">
        {page > 1 && (
          <LinkButton href={withParams("/compare", params, { page: page - 1 }) + "#flips"} size="sm">
            Previous
          </LinkButton>
        )}
        <span>
          Page {formatInteger(page)} of {formatInteger(pageCount)}
        </span>
        {page < pageCount && (
          <LinkButton href={withParams("/compare", params, { page: page + 1 }) + "#flips"} size="sm">
            Next
          </LinkButton>
        )}
      </div>
    </CardFrame>
  );
}

/**
 * A score flip in numbers: "0.82 → 0.31, pass mark 0.50". Lower-is-better metrics say their pass mark is a
 * ceiling; pass marks that differ between the runs read "pass marks 0.70, then 0.50", without an arrow that
 * could pass for a change of score.
 */
function describeScoreFlip(flip: Flip): string {
  const value = (score: number | null) => (score === null ? "—" : formatMetricValue(flip.metric, score));
  const marks =
    flip.baselineThreshold === flip.candidateThreshold
      ? value(flip.baselineThreshold)
      : `${value(flip.baselineThreshold)}, then ${value(flip.candidateThreshold)}`;
  const ceiling = scoreDirection(flip.metric) === "lower" ? " (at most)" : "";
  const label = flip.baselineThreshold === flip.candidateThreshold ? "pass mark" : "pass marks";
  return `${value(flip.baselineScore)} → ${value(flip.candidateScore)}, ${label} ${marks}${ceiling}`;
}

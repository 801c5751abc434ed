import { Suspense } from "react";
import { metricLabel } from "@/components/runs/metricLabel";
import { Card } from "@/components/ui/Card";
import { CardSkeleton } from "@/components/ui/Skeleton";
import { prepareHeatmap } from "@/lib/charts/heatmap";
import type { RunRowFilter } from "@/lib/contract/rowQueries";
import { heatmapHref, heatmapJumpForm, parseHeatmapFrom } from "@/lib/urlState/heatmapPage";
import type { SearchParams } from "@/lib/urlState/searchParams";
import { prepareHistogram, type HistogramUnit } from "@/lib/charts/histogram";
import { chartMetricLabel } from "@/lib/charts/labels";
import { preparePassRateChart } from "@/lib/charts/passRate";
import { LOWER_IS_BETTER_MARK } from "@/lib/charts/proportion";
import { prepareScoreHistogram } from "@/lib/charts/scoreHistogram";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import {
  getChunkHeatmap,
  getScoreHistogram,
  getValueHistogram,
  HISTOGRAM_METRICS,
  KEPT_SCORE_BINS,
} from "@/lib/db/judgments/chartQueries";
import { getDb } from "@/lib/db/client";
import { metricShape } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";
import { ChunkHeatmap } from "./ChunkHeatmap";
import { Histogram } from "./Histogram";
import { JudgeUsageCard } from "./JudgeUsageCard";
import { PassRateChart } from "./PassRateChart";

const HISTOGRAM_BUCKETS = 12;
const HEATMAP_ROWS = 50;
const HISTOGRAM_UNIT: Record<(typeof HISTOGRAM_METRICS)[number], HistogramUnit> = {
  "agent/latency_seconds": "seconds",
  "agent/total_token_count": "tokens",
};
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";

/**
 * The run page's charts. This wrapper awaits nothing itself: each widget is
 * an async server component behind its own Suspense boundary, so a slow
 * query shows that widget's skeleton and never holds up the rest of the page.
 */
export function RunChartsSection({
  runId,
  metrics,
  filter,
  searchParams = {},
}: {
  runId: string;
  metrics: string[];
  /** The rows table's filter, carried by the chunk grid's row links. */
  filter?: RunRowFilter;
  /** The page's URL parameters: where the heatmap's page starts, and what its page links keep. */
  searchParams?: SearchParams;
}) {
  const histograms = HISTOGRAM_METRICS.filter((metric) => metrics.includes(metric));
  // Built-in chunk relevance first; otherwise the first custom per-chunk (RETRIEVAL) judge.
  const heatmapMetric = metrics.includes(CHUNK_RELEVANCE)
    ? CHUNK_RELEVANCE
    : metrics.find((metric) => metricShape(metric) === "precision");
  const scores = metrics.filter((metric) => metricShape(metric) === "score");
  return (
    <section aria-label="Charts" className="grid gap-3 lg:grid-cols-2" data-testid="run-charts">
      <Suspense fallback={<CardSkeleton />}>
        <PassRateWidget runId={runId} metrics={metrics} />
      </Suspense>
      <Suspense fallback={<CardSkeleton />}>
        <JudgeUsageCard runId={runId} labelFor={metricLabel} />
      </Suspense>
      {histograms.map((metric) => (
        <Suspense key={metric} fallback={<CardSkeleton />}>
          <HistogramWidget runId={runId} metric={metric} />
        </Suspense>
      ))}
      {scores.length > 0 && (
        // Small multiples across the full width: one score fills it, three share a row, fourteen take five rows of three.
        <div
          className="grid gap-3 lg:col-span-2 [grid-template-columns:repeat(auto-fit,minmax(min(100%,360px),1fr))]"
          data-testid="score-histograms"
        >
          {scores.map((metric) => (
            <Suspense key={metric} fallback={<CardSkeleton />}>
              <ScoreHistogramWidget runId={runId} metric={metric} />
            </Suspense>
          ))}
        </div>
      )}
      {heatmapMetric && (
        <div className="lg:col-span-2">
          <Suspense fallback={<CardSkeleton tall />}>
            <HeatmapWidget runId={runId} metric={heatmapMetric} filter={filter} searchParams={searchParams} />
          </Suspense>
        </div>
      )}
    </section>
  );
}

async function PassRateWidget({ runId, metrics }: { runId: string; metrics: string[] }) {
  const data = preparePassRateChart(await getRunAggregates(getDb(), runId, metrics), chartMetricLabel);
  return (
    <Card title={data.title} subtitle={data.subtitle} testId="pass-rate">
      <PassRateChart data={data} />
    </Card>
  );
}

async function HistogramWidget({ runId, metric }: { runId: string; metric: (typeof HISTOGRAM_METRICS)[number] }) {
  const data = prepareHistogram(
    await getValueHistogram(getDb(), runId, metric, HISTOGRAM_BUCKETS),
    HISTOGRAM_UNIT[metric],
  );
  const title = `${metricLabel(metric)} per row`;
  return (
    <Card
      title={title}
      subtitle={<code className="font-mono text-[11px]">{metric}</code>}
      testId={`histogram-card-${HISTOGRAM_UNIT[metric]}`}
    >
      <Histogram data={data} title={title} testId={`histogram-${data.unit}`} />
    </Card>
  );
}

async function ScoreHistogramWidget({ runId, metric }: { runId: string; metric: string }) {
  const direction = scoreDirection(metric) ?? "higher";
  const data = prepareScoreHistogram(await getScoreHistogram(getDb(), runId, metric, KEPT_SCORE_BINS), direction);
  const title = `${metricLabel(metric)}: scores per row`;
  return (
    <Card
      title={title}
      subtitle={
        <>
          <code className="font-mono text-[11px]">{metric}/score</code>
          {direction === "lower" && (
            <span className="ml-1 font-medium text-amber-800" data-testid="lower-is-better">
              {LOWER_IS_BETTER_MARK} lower is better
            </span>
          )}
        </>
      }
      testId={`score-histogram-card-${metric.split("/").pop()}`}
    >
      <Histogram data={data} title={title} testId="score-histogram" captionTestId="score-histogram-caption" />
    </Card>
  );
}

async function HeatmapWidget({
  runId,
  metric,
  filter,
  searchParams,
}: {
  runId: string;
  metric: string;
  filter?: RunRowFilter;
  searchParams: SearchParams;
}) {
  const heatmap = await getChunkHeatmap(getDb(), runId, {
    metric,
    limitRows: HEATMAP_ROWS,
    fromRowNumber: parseHeatmapFrom(searchParams),
  });
  const model = prepareHeatmap(heatmap, { runId, filter });
  const pageLink = (from: number | null) => (from === null ? null : heatmapHref(runId, searchParams, from));
  return (
    <Card
      title={`${metricLabel(metric)}: verdict per retrieved chunk`}
      subtitle="Open a row for the judge's reasons"
      testId="chunk-heatmap-card"
    >
      <ChunkHeatmap
        model={model}
        pages={{
          previous: pageLink(heatmap.previousFrom),
          next: pageLink(heatmap.nextFrom),
          rows: HEATMAP_ROWS,
          jump: heatmapJumpForm(runId, searchParams),
        }}
      />
    </Card>
  );
}

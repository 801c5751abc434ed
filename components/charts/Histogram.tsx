"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import type { HistogramView, HistogramViewBar } from "@/lib/charts/histogram";
import { CHART_COLORS } from "@/lib/charts/palette";
import { AXIS_TICK, ChartEmpty, TooltipBox } from "./ChartParts";

const HEIGHT = 220;

/**
 * Rows per bucket: latency and tokens (prepareHistogram) and the DeepEval and Mastra scores
 * (prepareScoreHistogram, with the pass mark drawn). Buckets, colours and words come from those.
 */
export function Histogram({
  data,
  title,
  testId,
  captionTestId,
}: {
  data: HistogramView;
  title: string;
  testId: string;
  captionTestId?: string;
}) {
  if (data.emptyMessage) return <ChartEmpty>{data.emptyMessage}</ChartEmpty>;
  // A pass mark in the right half (strict mode's 1, say) writes its label leftwards, so the chart's edge does not cut it.
  const thresholdIndex = data.threshold ? data.bars.findIndex((bar) => bar.tick === data.threshold?.tick) : -1;
  const labelAnchor = thresholdIndex > data.bars.length / 2 ? "end" : "middle";
  return (
    <figure data-testid={testId}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart
          data={data.bars}
          margin={{ top: data.threshold ? 20 : 6, right: 24, bottom: 4, left: 0 }}
          barCategoryGap={2}
          title={title}
          desc={data.description}
        >
          <CartesianGrid vertical={false} stroke={CHART_COLORS.grid} />
          <XAxis
            dataKey="tick"
            tick={AXIS_TICK}
            stroke={CHART_COLORS.grid}
            interval="preserveStartEnd"
            minTickGap={10}
          />
          <YAxis allowDecimals={false} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={40} />
          <Tooltip content={HistogramTooltip} cursor={{ fill: "#f1f5f9" }} isAnimationActive={false} />
          <Bar dataKey="count" radius={[2, 2, 0, 0]} isAnimationActive={false}>
            {data.bars.map((bar) => (
              <Cell key={bar.tick} fill={bar.fill} />
            ))}
          </Bar>
          {data.threshold && (
            <ReferenceLine
              x={data.threshold.tick}
              position={data.threshold.position}
              stroke={CHART_COLORS.ink}
              strokeDasharray="4 3"
              label={{
                value: "pass mark",
                position: "top",
                fontSize: 12,
                fill: CHART_COLORS.ink,
                textAnchor: labelAnchor,
              }}
            />
          )}
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="mt-1 text-xs text-slate-600" data-testid={captionTestId}>
        {data.caption}
      </figcaption>
    </figure>
  );
}

function HistogramTooltip({ active, payload }: TooltipContentProps) {
  const bar = payload?.[0]?.payload as HistogramViewBar | undefined;
  if (!active || !bar) return null;
  return (
    <TooltipBox heading={bar.label}>
      <p>{bar.countText}</p>
    </TooltipBox>
  );
}

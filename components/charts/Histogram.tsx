"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import type { HistogramBar, HistogramChartData } from "@/lib/charts/histogram";
import { CHART_COLORS } from "@/lib/charts/palette";
import { AXIS_TICK, ChartEmpty, TooltipBox } from "./ChartParts";

const HEIGHT = 200;

/** Row counts per value bucket (latency, tokens); buckets and labels come from prepareHistogram. */
export function Histogram({ data, title }: { data: HistogramChartData; title: string }) {
  if (data.emptyMessage) return <ChartEmpty>{data.emptyMessage}</ChartEmpty>;
  return (
    <figure data-testid={`histogram-${data.unit}`}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart
          data={data.bars}
          margin={{ top: 4, right: 8, bottom: 4, left: 0 }}
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
            minTickGap={8}
          />
          <YAxis allowDecimals={false} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={40} />
          <Tooltip content={HistogramTooltip} cursor={{ fill: "#f1f5f9" }} isAnimationActive={false} />
          <Bar dataKey="count" fill={data.fill} radius={[2, 2, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="mt-1 text-[11px] text-slate-500">
        {data.summary} · x: {data.axisLabel}, y: rows
      </figcaption>
    </figure>
  );
}

function HistogramTooltip({ active, payload }: TooltipContentProps) {
  const bar = payload?.[0]?.payload as HistogramBar | undefined;
  if (!active || !bar) return null;
  return (
    <TooltipBox heading={bar.label}>
      <p>{bar.countText}</p>
    </TooltipBox>
  );
}

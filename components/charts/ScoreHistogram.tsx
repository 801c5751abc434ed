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
import type { ScoreHistogramBar, ScoreHistogramData } from "@/lib/charts/scoreHistogram";
import { CHART_COLORS } from "@/lib/charts/palette";
import { AXIS_TICK, ChartEmpty, TooltipBox } from "./ChartParts";

const HEIGHT = 200;

/** Rows per score bin with the pass mark drawn; bins, colours and words come from prepareScoreHistogram. */
export function ScoreHistogram({ data, title }: { data: ScoreHistogramData; title: string }) {
  if (data.emptyMessage) return <ChartEmpty>{data.emptyMessage}</ChartEmpty>;
  return (
    <figure data-testid="score-histogram">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart
          data={data.bars}
          margin={{ top: 16, right: 8, bottom: 4, left: 0 }}
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
          <Tooltip content={ScoreTooltip} cursor={{ fill: "#f1f5f9" }} isAnimationActive={false} />
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
              label={{ value: "pass mark", position: "top", fontSize: 10, fill: CHART_COLORS.ink }}
            />
          )}
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="mt-1 text-[11px] text-slate-600" data-testid="score-histogram-caption">
        {data.summary}
        {data.threshold && <> · {data.threshold.text}</>} · x: score, y: rows
      </figcaption>
    </figure>
  );
}

function ScoreTooltip({ active, payload }: TooltipContentProps) {
  const bar = payload?.[0]?.payload as ScoreHistogramBar | undefined;
  if (!active || !bar) return null;
  return (
    <TooltipBox heading={bar.label}>
      <p>{bar.countText}</p>
    </TooltipBox>
  );
}

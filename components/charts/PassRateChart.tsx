"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import type { PassRateBar, PassRateChartData } from "@/lib/charts/passRate";
import { CHART_COLORS } from "@/lib/charts/palette";
import { ChartEmpty, labelYAxis, PERCENT_X_AXIS, SwatchLegend, TooltipBox } from "./ChartParts";

/** Yes-rate, success rate or mean per metric as horizontal bars with 95% intervals; every decision is in preparePassRateChart. */
export function PassRateChart({ data }: { data: PassRateChartData }) {
  if (data.bars.length === 0) return <ChartEmpty>No yes/no or score metric has a value yet.</ChartEmpty>;
  return (
    <figure data-testid="pass-rate-chart">
      <ResponsiveContainer width="100%" height={data.height}>
        <BarChart
          data={data.bars}
          layout="vertical"
          margin={{ top: 4, right: 16, bottom: 4, left: 0 }}
          title={data.title}
          desc={data.description}
        >
          <CartesianGrid horizontal={false} stroke={CHART_COLORS.grid} />
          <XAxis {...PERCENT_X_AXIS} />
          <YAxis {...labelYAxis(data.labelWidth)} />
          <Tooltip content={PassRateTooltip} cursor={{ fill: "#f1f5f9" }} isAnimationActive={false} />
          <Bar
            dataKey="percent"
            barSize={data.barSize}
            radius={[0, 3, 3, 0]}
            // A 0% bar is a sliver rather than nothing, so it does not read as a missing metric.
            minPointSize={2}
            isAnimationActive={false}
          >
            <ErrorBar
              dataKey="error"
              width={4}
              stroke={CHART_COLORS.ink}
              strokeWidth={1.25}
              isAnimationActive={false}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="mt-2 space-y-1 text-xs text-slate-600">
        <SwatchLegend items={data.legend} label="Colour bands" />
        <p data-testid="pass-rate-caption">{data.caption}</p>
      </figcaption>
    </figure>
  );
}

function PassRateTooltip({ active, payload }: TooltipContentProps) {
  const bar = payload?.[0]?.payload as PassRateBar | undefined;
  if (!active || !bar) return null;
  return (
    <TooltipBox heading={bar.label}>
      <p className="font-semibold text-slate-900">{bar.valueText}</p>
      <p>{bar.basisText}</p>
      {bar.intervalText && <p>{bar.intervalText}</p>}
      {bar.scoreText && <p>{bar.scoreText}</p>}
      {bar.errorsText && <p className="text-red-700">{bar.errorsText}</p>}
    </TooltipBox>
  );
}

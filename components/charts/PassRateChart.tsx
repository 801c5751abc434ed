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

/** Yes-rate or mean score per metric as horizontal bars with 95% intervals; every decision is in preparePassRateChart. */
export function PassRateChart({ data, title = "Pass rate by metric" }: { data: PassRateChartData; title?: string }) {
  if (data.bars.length === 0) return <ChartEmpty>No yes/no or score metric has a value yet.</ChartEmpty>;
  return (
    <figure data-testid="pass-rate-chart">
      <ResponsiveContainer width="100%" height={data.height}>
        <BarChart
          data={data.bars}
          layout="vertical"
          margin={{ top: 4, right: 16, bottom: 4, left: 0 }}
          title={title}
          desc={data.description}
        >
          <CartesianGrid horizontal={false} stroke={CHART_COLORS.grid} />
          <XAxis {...PERCENT_X_AXIS} />
          <YAxis {...labelYAxis(data.labelWidth)} />
          <Tooltip content={PassRateTooltip} cursor={{ fill: "#f1f5f9" }} isAnimationActive={false} />
          <Bar dataKey="percent" barSize={16} radius={[0, 3, 3, 0]} isAnimationActive={false}>
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
      <figcaption className="mt-1 flex flex-wrap items-center justify-between gap-2 text-[11px] text-slate-500">
        <SwatchLegend items={data.legend} label="Colour bands" />
        <span>Whiskers: 95% Wilson interval (yes/no metrics)</span>
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
      {bar.errorsText && <p className="text-red-700">{bar.errorsText}</p>}
    </TooltipBox>
  );
}

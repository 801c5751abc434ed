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
import type { CompareBarsData, CompareRow } from "@/lib/charts/compareBars";
import { CHART_COLORS } from "@/lib/charts/palette";
import { CardFrame } from "@/components/ui/Card";
import { labelYAxis, PERCENT_X_AXIS, SwatchLegend, TooltipBox } from "./ChartParts";

/** Each proportion metric as a group of bars, one per run (baseline first), with 95% intervals where they exist; scores as their success %. */
export function CompareBars({ data, title = "Metrics by run" }: { data: CompareBarsData; title?: string }) {
  if (data.rows.length === 0) return null;
  return (
    <CardFrame aria-label={title} data-testid="compare-bars">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <SwatchLegend
          label="Runs"
          items={data.series.map((s) => ({ label: s.baseline ? `${s.name} (baseline)` : s.name, color: s.color }))}
        />
      </div>
      <figure className="mt-2">
        <ResponsiveContainer width="100%" height={data.height}>
          <BarChart
            data={data.rows}
            layout="vertical"
            margin={{ top: 4, right: 16, bottom: 4, left: 0 }}
            barGap={1}
            barCategoryGap={10}
            title={title}
            desc={data.description}
          >
            <CartesianGrid horizontal={false} stroke={CHART_COLORS.grid} />
            <XAxis {...PERCENT_X_AXIS} />
            <YAxis {...labelYAxis(data.labelWidth)} />
            <Tooltip
              content={(props: TooltipContentProps) => <CompareTooltip {...props} data={data} />}
              cursor={{ fill: "#f1f5f9" }}
              isAnimationActive={false}
            />
            {data.series.map((s) => (
              <Bar
                key={s.runId}
                dataKey={s.valueKey}
                name={s.name}
                fill={s.color}
                radius={[0, 2, 2, 0]}
                // A 0% bar is a sliver rather than nothing, so it does not read as "no value" (that bar is absent).
                minPointSize={2}
                isAnimationActive={false}
              >
                <ErrorBar
                  dataKey={s.errorKey}
                  width={3}
                  stroke={CHART_COLORS.ink}
                  strokeWidth={1}
                  isAnimationActive={false}
                />
              </Bar>
            ))}
          </BarChart>
        </ResponsiveContainer>
        <figcaption className="mt-1 text-xs text-slate-600" data-testid="compare-bars-caption">
          {data.caption}
        </figcaption>
      </figure>
    </CardFrame>
  );
}

function CompareTooltip({ active, payload, data }: TooltipContentProps & { data: CompareBarsData }) {
  const row = payload?.[0]?.payload as CompareRow | undefined;
  if (!active || !row) return null;
  return (
    <TooltipBox heading={row.label}>
      {data.series.map((s) => (
        <p key={s.runId} className="flex items-start gap-1.5">
          <span
            aria-hidden
            className="mt-1 inline-block h-2 w-2 shrink-0 rounded-sm"
            style={{ backgroundColor: s.color }}
          />
          <span>
            <span className="font-medium text-slate-800">
              {s.name}
              {s.baseline ? " (baseline)" : ""}
            </span>
            : {String(row[s.textKey])}
          </span>
        </p>
      ))}
    </TooltipBox>
  );
}

import type { ReactNode } from "react";
import { wrapLabel } from "@/lib/charts/format";
import { AXIS_CHAR_PX } from "@/lib/charts/labels";
import { CHART_COLORS } from "@/lib/charts/palette";

/** The tooltip box every chart uses: a small white card with a heading and lines of exact numbers. */
export function TooltipBox({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="max-w-xs rounded-md border border-slate-200 bg-white px-2.5 py-1.5 text-xs shadow-md">
      <p className="font-medium text-slate-800">{heading}</p>
      <div className="mt-0.5 space-y-0.5 tabular-nums text-slate-600">{children}</div>
    </div>
  );
}

/** A row of colour swatches with labels, drawn in HTML so it wraps on narrow screens. */
export function SwatchLegend({ items, label }: { items: { label: string; color: string }[]; label: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1">
          <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: item.color }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

export function ChartEmpty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded border border-dashed border-slate-200 px-3 py-6 text-center text-xs text-slate-500">
      {children}
    </p>
  );
}

/**
 * Axis tick style shared by the recharts leaves (12 px slate: readable at a glance and in screenshots).
 * The size is repeated in `style` because recharts measures tick words with
 * the style object only; without it, labels are measured at the page's 16 px
 * and wrap although they fit.
 */
export const AXIS_TICK = { fontSize: 12, fill: "#475569", style: { fontSize: "12px" } };

/** The value axis of the horizontal percentage bar charts (pass rate, compare): 0–100 % in steps of 20. */
export const PERCENT_X_AXIS = {
  type: "number",
  domain: [0, 100],
  ticks: [0, 20, 40, 60, 80, 100],
  tickFormatter: (v: number) => `${v}%`,
  tick: AXIS_TICK,
  stroke: CHART_COLORS.grid,
} as const;

/** Their category axis: one label per bar, every label shown, in the width the data asked for. */
export function labelYAxis(width: number) {
  return {
    type: "category",
    dataKey: "label",
    width,
    tick: (props: CategoryTickProps) => <CategoryTick {...props} width={width} />,
    stroke: CHART_COLORS.grid,
    interval: 0,
  } as const;
}

type CategoryTickProps = { x?: number | string; y?: number | string; payload?: { value?: unknown } };

/** The tick mark and gap left of a category label (as in categoryAxisWidth). */
const TICK_GAP_PX = 16;

/**
 * A category label that wraps onto two lines after a space, "/" or "_" and otherwise ends in "…" at such a
 * boundary, never cut inside a word by the edge of the chart; the full label is its tooltip (<title>).
 */
function CategoryTick({ x, y, payload, width }: CategoryTickProps & { width: number }) {
  const label = String(payload?.value ?? "");
  const { lines } = wrapLabel(label, Math.max(8, Math.floor((width - TICK_GAP_PX) / AXIS_CHAR_PX)), 2);
  const tx = Number(x ?? 0) - 4;
  return (
    <text x={tx} y={Number(y ?? 0)} textAnchor="end" fontSize={AXIS_TICK.fontSize} fill={AXIS_TICK.fill}>
      <title>{label}</title>
      {lines.map((line, index) => (
        <tspan key={index} x={tx} dy={index === 0 ? `${0.35 - (lines.length - 1) * 0.6}em` : "1.2em"}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

import Link from "next/link";
import type { HeatmapModel } from "@/lib/charts/heatmap";
import { ChartEmpty, SwatchLegend } from "./ChartParts";
import { ScrollToHeatmap } from "./ScrollToHeatmap";

const SQUARE = 12;
/** The grid's element id: the heatmap's page links and form come back to it. */
const HEATMAP_ID = "chunk-heatmap";
const GAP = 2;

/**
 * Per-chunk verdicts as a grid of small squares: a line per dataset row, a
 * square per retrieved chunk. Plain HTML and CSS grid rather than recharts,
 * which has no heatmap: faking one with a ScatterChart of square symbols
 * gives nothing back (no category grid, awkward sizing) and costs an SVG
 * node plus event handlers per cell, while a native title per square is
 * all the interaction a cell needs. Lines flow into as many CSS columns as
 * the width allows, so 50 rows stay short on a wide screen; the pager below
 * moves through the rest of the run, 50 rows at a time.
 */
export function ChunkHeatmap({ model, pages }: { model: HeatmapModel; pages?: HeatmapPages }) {
  if (model.emptyMessage)
    return (
      <>
        <ChartEmpty>{model.emptyMessage}</ChartEmpty>
        {pages && <HeatmapPager pages={pages} />}
      </>
    );
  const squaresWidth = model.columnCount * (SQUARE + GAP);
  return (
    <figure data-testid="chunk-heatmap" id={HEATMAP_ID} className="scroll-mt-16">
      <ScrollToHeatmap targetId={HEATMAP_ID} />
      <figcaption className="mb-2 flex flex-wrap items-center justify-between gap-2 text-[11px] text-slate-500">
        <span>
          {model.caption}. Squares are retrieved chunks #1–#{model.columnCount}, left to right. P: chunk precision, R:
          document recall.
        </span>
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <SwatchLegend items={model.legend} label="Chunk verdicts" />
          <span className="flex items-center gap-1 text-slate-600">
            <span aria-hidden className="grid h-2.5 w-2.5 place-items-center rounded-sm bg-slate-200">
              <span className="h-1 w-1 rounded-full bg-slate-900" />
            </span>
            expected document
          </span>
        </span>
      </figcaption>
      <ol className="gap-x-6 text-[11px]" style={{ columnWidth: `${squaresWidth + 170}px` }}>
        {model.rows.map((row) => (
          <li key={row.rowId} className="flex break-inside-avoid items-center gap-2 py-px" title={row.title}>
            {row.href ? (
              <Link
                prefetch={false}
                href={row.href}
                className="w-20 shrink-0 truncate font-mono text-slate-600 hover:text-indigo-700 hover:underline"
              >
                {row.label} <span className="text-slate-400">{row.shortRequestId}</span>
              </Link>
            ) : (
              <span className="w-20 shrink-0 truncate font-mono text-slate-600">
                {row.label} <span className="text-slate-400">{row.shortRequestId}</span>
              </span>
            )}
            {row.noChunks && (
              <span
                className="shrink-0 overflow-hidden whitespace-nowrap text-slate-400"
                style={{ width: squaresWidth - GAP }}
              >
                none
              </span>
            )}
            <span
              className={row.noChunks ? "hidden" : "grid shrink-0"}
              style={{ gridTemplateColumns: `repeat(${model.columnCount}, ${SQUARE}px)`, gap: `${GAP}px` }}
            >
              {row.cells.map((cell) =>
                cell.color === null ? (
                  <span key={cell.position} aria-hidden style={{ width: SQUARE, height: SQUARE }} />
                ) : (
                  <span
                    key={cell.position}
                    role="img"
                    aria-label={cell.title}
                    title={cell.title}
                    className="grid place-items-center rounded-[2px]"
                    style={{ width: SQUARE, height: SQUARE, backgroundColor: cell.color }}
                  >
                    {cell.expected && <span className="h-1 w-1 rounded-full bg-slate-900" />}
                  </span>
                ),
              )}
            </span>
            <span className="w-12 shrink-0 text-right tabular-nums text-slate-600">
              <span className="text-slate-400">P</span> {row.precisionText}
            </span>
            <span className="w-12 shrink-0 text-right tabular-nums text-slate-600">
              <span className="text-slate-400">R</span> {row.recallText}
            </span>
          </li>
        ))}
      </ol>
      {pages && <HeatmapPager pages={pages} />}
    </figure>
  );
}

/**
 * Links to the pages of rows before and after this one (null at either end), and a GET form that starts the
 * grid at a row number the reviewer types (its other fields keep the page's URL parameters).
 */
export type HeatmapPages = {
  previous: string | null;
  next: string | null;
  rows: number;
  jump: { action: string; name: string; hidden: [string, string][] };
};

function HeatmapPager({ pages }: { pages: HeatmapPages }) {
  if (!pages.previous && !pages.next) return null;
  const link = "rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50";
  const off = "rounded border border-slate-200 bg-slate-50 px-2 py-0.5 text-slate-500";
  return (
    <nav
      aria-label="Heatmap rows"
      className="mt-2 flex flex-wrap items-center justify-end gap-2 text-xs"
      data-testid="heatmap-pager"
    >
      <form action={pages.jump.action} method="get" className="flex items-center gap-1" data-testid="heatmap-jump">
        {pages.jump.hidden.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <label className="text-slate-600" htmlFor="heatmap-from">
          From row
        </label>
        <input
          id="heatmap-from"
          name={pages.jump.name}
          type="number"
          min={1}
          step={1}
          required
          className="w-24 rounded border border-slate-300 px-1.5 py-0.5 tabular-nums"
        />
        <button type="submit" className={link}>
          Go
        </button>
      </form>
      {pages.previous ? (
        <Link prefetch={false} href={pages.previous} scroll={false} rel="prev" className={link}>
          ← Previous {pages.rows} rows
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          ← Previous {pages.rows} rows
        </span>
      )}
      {pages.next ? (
        <Link prefetch={false} href={pages.next} scroll={false} rel="next" className={link}>
          Next {pages.rows} rows →
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          Next {pages.rows} rows →
        </span>
      )}
    </nav>
  );
}

import type { ChunkHeatmap, ChunkVerdict } from "@/lib/db/judgments/chartQueries";
import type { RunRowFilter } from "@/lib/contract/rowQueries";
import { runRowHref } from "@/lib/urlState/runRowQuery";
import { distinguishingTails, formatInteger, formatPercent } from "./format";
import { CHART_COLORS } from "./palette";

/** "none" is a position this row has no chunk at (it retrieved fewer than the widest row). */
export type HeatmapCellState = "yes" | "no" | "error" | "unjudged" | "none";

export type HeatmapCell = {
  position: number;
  state: HeatmapCellState;
  /** Square colour; null for "none", which draws no square. */
  color: string | null;
  /** The chunk's doc_uri is one of the row's expected documents. */
  expected: boolean;
  /** Native tooltip text with the row, the chunk and the verdict in words. */
  title: string;
};

export type HeatmapRow = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  /** The request id without what every row on the page shares, for the narrow label; `requestId` on hover. */
  shortRequestId: string;
  href: string | null;
  label: string;
  precisionText: string;
  recallText: string;
  title: string;
  /** The row retrieved nothing: say so instead of drawing an empty line. */
  noChunks: boolean;
  cells: HeatmapCell[];
};

export type HeatmapModel = {
  /** Number of square columns: chunk positions 0…maxPosition. */
  columnCount: number;
  rows: HeatmapRow[];
  legend: { label: string; color: string }[];
  /** "Rows 1–50 of 120, by row number"; null when there are no rows. */
  caption: string | null;
  /** Shown instead of the grid when no row on the page retrieved any chunk. */
  emptyMessage: string | null;
};

const STATE_STYLE: Record<Exclude<HeatmapCellState, "none">, { color: string; words: string }> = {
  yes: { color: CHART_COLORS.verdictYes, words: "relevant" },
  no: { color: CHART_COLORS.verdictNo, words: "not relevant" },
  error: { color: CHART_COLORS.verdictError, words: "judge error" },
  unjudged: { color: CHART_COLORS.verdictAbsent, words: "not judged" },
};

function stateOf(verdict: ChunkVerdict): Exclude<HeatmapCellState, "none"> {
  return verdict === null ? "unjudged" : verdict;
}

/**
 * A rows × chunk-positions grid: one square per retrieved chunk coloured by
 * its verdict (yes green, no red, error amber, not judged light grey), a
 * marker where the chunk is an expected document, and each row's precision
 * and recall as text. Rows keep the order the query returned (row number).
 */
export function prepareHeatmap(
  heatmap: ChunkHeatmap,
  // The table's filter rides along on each row link, as the table's own do, so j / k / n stay within it.
  options: { runId?: string; filter?: RunRowFilter } = {},
): HeatmapModel {
  const legend = Object.values(STATE_STYLE).map(({ color, words }) => ({ label: words, color }));
  const columnCount = heatmap.maxPosition + 1;
  if (heatmap.rows.length === 0 || columnCount === 0) {
    return {
      columnCount: 0,
      rows: [],
      legend,
      caption: null,
      emptyMessage:
        heatmap.rows.length === 0
          ? "This run's dataset has no rows on this page."
          : "None of these rows has retrieved chunks to show.",
    };
  }
  const tails = distinguishingTails(heatmap.rows.map((row) => row.requestId));
  const rows = heatmap.rows.map((row, index): HeatmapRow => {
    const label = `#${row.rowNumber}`;
    const byPosition = new Map(row.cells.map((cell) => [cell.position, cell]));
    const cells = Array.from({ length: columnCount }, (_, position): HeatmapCell => {
      const cell = byPosition.get(position);
      const where = `Row ${row.rowNumber} (${row.requestId}), chunk #${position + 1}`;
      if (!cell) return { position, state: "none", color: null, expected: false, title: `${where}: not retrieved` };
      const state = stateOf(cell.verdict);
      return {
        position,
        state,
        color: STATE_STYLE[state].color,
        expected: cell.expected,
        title: `${where}: ${STATE_STYLE[state].words}${cell.expected ? " · expected document" : ""}`,
      };
    });
    const precisionText = row.precision === null ? "—" : formatPercent(row.precision, 0);
    const recallText = row.recall === null ? "—" : formatPercent(row.recall, 0);
    return {
      rowId: row.rowId,
      rowNumber: row.rowNumber,
      requestId: row.requestId,
      shortRequestId: tails[index],
      href: options.runId
        ? options.filter
          ? runRowHref(options.runId, row.rowId, options.filter)
          : `/runs/${options.runId}/rows/${row.rowId}`
        : null,
      label,
      precisionText,
      recallText,
      title: `Row ${row.rowNumber} (${row.requestId}): ${row.cells.length === 0 ? "no retrieved chunks" : `precision ${precisionText}, document recall ${recallText}`}`,
      noChunks: row.cells.length === 0,
      cells,
    };
  });
  const first = rows[0].rowNumber;
  const last = rows[rows.length - 1].rowNumber;
  return {
    columnCount,
    rows,
    legend,
    caption: `Rows ${formatInteger(first)}–${formatInteger(last)} of ${formatInteger(heatmap.totalRows)}, by row number`,
    emptyMessage: null,
  };
}

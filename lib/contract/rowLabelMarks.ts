/**
 * What the rows table shows beside a verdict chip: the person's label of that
 * row and metric, summarised from the page's paired labels (read in the same
 * server-side page query as the verdicts, db/runRowQueries.ts).
 */
export type PairedLabel = {
  rowId: string;
  metric: string;
  chunkPosition: number;
  kind: string;
  humanRating: string | null;
  humanScore: number | null;
  /** judged | error | unjudged | elsewhere (given on another response), as agreement counts it (db/agreementQueries.ts). */
  outcome: string;
  judge: string | null;
  human: string | null;
};

export type RowLabelMark = {
  /** "yes" / "no", a score ("0.80"), or per chunk "2 of 3 yes". */
  text: string;
  /** The judge's verdict is known and differs from the label (for chunks: on any labelled chunk). */
  disagrees: boolean;
  /** For per-chunk labels: how many chunks carry a label. */
  chunks: number | null;
  /** The label was given on another response than the one this run judged: shown as such, compared with nothing. */
  otherResponse: boolean;
};

/** What the marker and the drill-down say for a label given on another response. */
export const OTHER_RESPONSE_TEXT = "labelled on another response";

/** The labels of a page's rows as marks, by row id then metric. */
export function rowLabelMarks(pairs: readonly PairedLabel[]): Map<string, Record<string, RowLabelMark>> {
  const grouped = new Map<string, Map<string, PairedLabel[]>>();
  for (const pair of pairs) {
    const byMetric = grouped.get(pair.rowId) ?? new Map<string, PairedLabel[]>();
    byMetric.set(pair.metric, [...(byMetric.get(pair.metric) ?? []), pair]);
    grouped.set(pair.rowId, byMetric);
  }
  const marks = new Map<string, Record<string, RowLabelMark>>();
  for (const [rowId, byMetric] of grouped) {
    marks.set(rowId, Object.fromEntries([...byMetric].map(([metric, labels]) => [metric, markOf(labels)])));
  }
  return marks;
}

function disagrees(pair: PairedLabel): boolean {
  return pair.outcome === "judged" && pair.judge !== null && pair.human !== null && pair.judge !== pair.human;
}

function markOf(labels: readonly PairedLabel[]): RowLabelMark {
  const chunkLabels = labels.filter((label) => label.chunkPosition >= 0);
  if (chunkLabels.length > 0) {
    const yes = chunkLabels.filter((label) => label.humanRating === "yes").length;
    return {
      text: `${yes} of ${chunkLabels.length} yes`,
      disagrees: chunkLabels.some(disagrees),
      chunks: chunkLabels.length,
      otherResponse: false,
    };
  }
  const label = labels[0];
  const text =
    label.kind === "score"
      ? label.humanScore === null
        ? "–"
        : label.humanScore.toFixed(2)
      : (label.humanRating ?? "–");
  if (label.outcome === "elsewhere") return { text, disagrees: false, chunks: null, otherResponse: true };
  return { text, disagrees: disagrees(label), chunks: null, otherResponse: false };
}

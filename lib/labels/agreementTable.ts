import type { JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import type { StoredLabel } from "@/lib/db/labels/labelQueries";
import { KAPPA_INTERVAL_METHOD } from "@/lib/stats";
import { WHOLE_ROW } from "./labelValue";

/**
 * Agreement in words and columns for the CLI and the exports. The CLI prints
 * formatAgreementTable(getRunAgreement(db, run)) after a run when the dataset
 * has labels; exports add humanLabelColumn(metric) beside each judge's verdict.
 */
export function formatKappa(row: Pick<JudgeAgreement, "kappa">): string {
  if (!row.kappa.defined) return `undefined (${row.kappa.reason})`;
  const { kappa, low, high, intervalNote } = row.kappa;
  if (intervalNote) return `${kappa.toFixed(2)} (${intervalNote})`;
  return `${kappa.toFixed(2)} [${low.toFixed(2)}, ${high.toFixed(2)}]`;
}

const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)} %`);

/** A plain-text table, one line per judge, with the matrix as judge/human cells (yy yn ny nn). */
export function formatAgreementTable(all: readonly JudgeAgreement[]): string {
  // Labelled metrics this run did not judge at all have nothing to show.
  const rows = all.filter((row) => row.labelled + row.errors > 0);
  const leftOut = otherResponseNote(all);
  if (rows.length === 0) return ["No human labels on this run's judged metrics.", ...leftOut].join("\n");
  const header = [
    "metric",
    "labelled",
    "errors",
    "raw agreement",
    "κ (95 % CI)",
    "yes/yes yes/no no/yes no/no",
    "Spearman",
    "MAD",
  ];
  const lines = rows.map((row) => {
    const { yesYes, yesNo, noYes, noNo } = row.confusion;
    const spearman = row.scores ? (row.scores.spearman.defined ? row.scores.spearman.rho.toFixed(2) : "undefined") : "";
    const mad = row.scores?.meanAbsoluteDifference;
    return [
      row.metric + (row.perChunk ? " (per chunk)" : ""),
      String(row.labelled),
      String(row.errors),
      percent(row.rawAgreement),
      formatKappa(row),
      `${yesYes} ${yesNo} ${noYes} ${noNo}`,
      spearman,
      mad === undefined || mad === null ? "" : mad.toFixed(3),
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [
    render(header),
    ...lines.map(render),
    `κ: ${KAPPA_INTERVAL_METHOD}; score judges compare pass/fail at the run's threshold; errors are counted beside, never as agreement.`,
    ...leftOut,
  ].join("\n");
}

/** "N labels left out: given on another response": labels this run's figures leave out, as every agreement view says it. */
export function otherResponseText(count: number): string {
  return `${count} ${count === 1 ? "label" : "labels"} left out: given on another response`;
}

function otherResponseNote(all: readonly Pick<JudgeAgreement, "otherResponse">[]): string[] {
  const count = all.reduce((sum, row) => sum + row.otherResponse, 0);
  return count > 0
    ? [`${otherResponseText(count)} than the one this run judged (a generated answer, or the dataset's).`]
    : [];
}

/** The export column that carries the person's label next to a judge's verdict, e.g. response/llm_judged/groundedness/human_label. */
export function humanLabelColumn(metric: string): string {
  return `${metric}/human_label`;
}

/** One labeller's own label beside the gold `…/human_label`, where several people labelled the metric. */
export function personLabelColumn(metric: string, labeller: string): string {
  return `${metric}/human_label/${labeller === "" ? "unnamed" : labeller}`;
}

/**
 * A row's labels as export cells: yes/no or the score under
 * humanLabelColumn(metric); per-chunk labels as a list by chunk position
 * (null where a chunk has no label), like the judge's per-chunk ratings.
 */
export function humanLabelCells(
  labels: readonly StoredLabel[],
  columnOf: (label: StoredLabel) => string = (label) => humanLabelColumn(label.metric),
): Record<string, string | number | (string | null)[]> {
  const cells: Record<string, string | number | (string | null)[]> = {};
  for (const label of labels) {
    const column = columnOf(label);
    const value = label.kind === "score" ? label.score : label.rating;
    if (value === null) continue;
    if (label.chunkPosition === WHOLE_ROW) {
      cells[column] = value;
      continue;
    }
    const list = Array.isArray(cells[column]) ? cells[column] : [];
    while (list.length <= label.chunkPosition) list.push(null);
    list[label.chunkPosition] = String(value);
    cells[column] = list;
  }
  return cells;
}

import type { Aggregate } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";
import { wilsonInterval } from "@/lib/stats";
import { formatInteger, formatPercent } from "./format";

/**
 * What a percentage bar of a metric stands for. A yes/no judge: its yes-rate. A DeepEval or Mastra
 * score: its success percentage (`…/success/percentage`, the share of scored rows meeting the pass
 * mark, ≤ where lower is better), never its average score, which is not a share of rows and is
 * drawn on its own 0–1 scale in the score histogram. Precision and recall: the mean per row.
 */
export type BarProportion = {
  kind: "yes" | "success" | "mean";
  value: number;
  numerator: number;
  denominator: number;
  /** The 95% Wilson interval for yes and success (counts of rows); null for means. */
  interval: { low: number; high: number } | null;
  /** Lower scores are better (hallucination, toxicity, bias); their success already counts scores ≤ the pass mark. */
  lowerIsBetter: boolean;
};

export function barProportion(aggregate: Aggregate): BarProportion | null {
  if (aggregate.success) {
    const { value, numerator, denominator } = aggregate.success;
    if (value === null) return null;
    return {
      kind: "success",
      value,
      numerator,
      denominator,
      interval: aggregate.success.interval ?? wilsonInterval(numerator, denominator),
      lowerIsBetter: scoreDirection(aggregate.metric) === "lower",
    };
  }
  if (aggregate.value === null) return null;
  const yes = aggregate.kind === "percentage";
  return {
    kind: yes ? "yes" : "mean",
    value: aggregate.value,
    numerator: aggregate.numerator,
    denominator: aggregate.denominator,
    interval: yes ? (aggregate.interval ?? wilsonInterval(aggregate.numerator, aggregate.denominator)) : null,
    lowerIsBetter: false,
  };
}

/** "↓" marks a lower-is-better score on an axis label; the caption says what it means. */
export const LOWER_IS_BETTER_MARK = "↓";

/** The axis label of a bar: a score's says it is the success rate, and marks lower-is-better. */
export function barLabel(label: string, proportion: Pick<BarProportion, "kind" | "lowerIsBetter">): string {
  if (proportion.kind !== "success") return label;
  return `${label}${proportion.lowerIsBetter ? ` ${LOWER_IS_BETTER_MARK}` : ""} · success`;
}

/** "72.0% yes (36/50)", "74.5% succeed (35/47)", "25.0% mean over 4 rows". */
export function proportionText(proportion: BarProportion): string {
  const counts = `(${formatInteger(proportion.numerator)}/${formatInteger(proportion.denominator)})`;
  if (proportion.kind === "yes") return `${formatPercent(proportion.value)} yes ${counts}`;
  if (proportion.kind === "success") return `${formatPercent(proportion.value)} succeed ${counts}`;
  return `${formatPercent(proportion.value)} mean over ${formatInteger(proportion.denominator)} rows`;
}

/** What the bars of a chart mean, for its caption: only the kinds it draws. */
export function proportionCaption(kinds: Set<BarProportion["kind"]>, anyLowerIsBetter: boolean): string {
  const parts: string[] = [];
  if (kinds.has("yes")) parts.push("yes/no judges: % yes");
  if (kinds.has("success"))
    parts.push(
      `scores: % of rows that succeed (score at or above the pass mark${anyLowerIsBetter ? `; ${LOWER_IS_BETTER_MARK} lower is better, so at or below it` : ""})`,
    );
  const whiskers = kinds.has("yes") || kinds.has("success") ? ", with 95% Wilson interval" : "";
  const mean = kinds.has("mean") ? ". Precision and recall: mean per row" : "";
  if (parts.length === 0) return kinds.has("mean") ? "Precision and recall: mean per row." : "";
  const text = parts.join("; ");
  return `${text[0].toUpperCase()}${text.slice(1)}${whiskers}${mean}.`;
}

import { formatCountOf, formatInteger, formatPercent } from "@/lib/charts/format";
import { isAgentValueMetric } from "@/lib/contract/aggregates";
import type { SkipReasonCount } from "@/lib/db/judgments/skipReasonQueries";
import type { Aggregate } from "@/lib/contract/aggregates";

/**
 * The line under a card's figure: what it was computed over or, with no
 * figure, one sentence that says why ("200 rows skipped: needs
 * expected_retrieved_context[].content (the ideal context)").
 */
export function cardBasis(a: Aggregate, skipReasons: SkipReasonCount[] = []): string {
  if (a.value === null) {
    if (a.pending > 0) return "not computed yet";
    if (a.skipped > 0 && a.errors === 0) return skippedSentence(a.skipped, skipReasons);
    if (a.errors > 0) return `no row could be judged: ${formatCountOf(a.errors, "judgment")} errored`;
    return "no row could be judged";
  }
  if (a.kind === "percentage")
    return a.trials
      ? `${formatInteger(a.numerator)} of ${formatInteger(a.denominator)} judged trials (${a.trials} a row)`
      : `${formatInteger(a.numerator)} of ${formatInteger(a.denominator)} judged rows`;
  if (a.success) return `average score over ${formatCountOf(a.denominator, "row")}`;
  const what =
    a.metric === "retrieval/ground_truth/document_recall"
      ? "recall"
      : isAgentValueMetric(a.metric)
        ? "value"
        : "precision";
  const judged = a.passed + a.failed;
  const passRate =
    judged > 0 && !a.metric.startsWith("agent/")
      ? `; ${formatPercent(a.passed / judged, 0)} of rows pass (${formatInteger(a.passed)} of ${formatInteger(judged)})`
      : "";
  return `mean ${what} over ${formatCountOf(a.denominator, "row")}${passRate}`;
}

/** "200 rows skipped: needs …", the most common reason named, the others counted. */
export function skippedSentence(skipped: number, reasons: SkipReasonCount[]): string {
  const head = `${formatCountOf(skipped, "row")} skipped`;
  const [first, ...rest] = reasons;
  if (!first) return head;
  if (rest.length === 0) return `${head}: ${first.reason}`;
  const others = rest.reduce((sum, reason) => sum + reason.count, 0);
  return `${head}: ${first.reason} (${formatInteger(first.count)}); ${formatInteger(others)} for other reasons`;
}

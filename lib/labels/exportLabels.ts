import type { StoredLabel } from "@/lib/db/labels/labelQueries";
import { findMetric } from "@/lib/contract/metricCatalog";
import { humanLabelCells, humanLabelColumn, personLabelColumn } from "./agreementTable";
import { labelKindOf } from "./labelKinds";

/**
 * Exports carry the person's label next to each judge's verdict. These work
 * on a record's column order, whatever columns the result record has, so they
 * follow changes to lib/export/resultColumns.ts without an edit here.
 */

/**
 * The run's metrics that take a human label (computed metrics get no column):
 * its labellable catalogue metrics and its own custom and G-Eval judges
 * (`runJudges`, full names: labellableRunMetrics or runJudgeLabelMetrics).
 */
export function labelledExportMetrics(metrics: readonly string[], runJudges: readonly string[] = []): string[] {
  const own = new Set(runJudges);
  return metrics.filter((metric) => {
    if (own.has(metric)) return true;
    const definition = findMetric(metric);
    return definition !== undefined && labelKindOf(definition) !== null;
  });
}

/**
 * Column names with `<metric>/human_label` (the gold label) inserted after the last column of each
 * labellable metric, followed, where several people labelled it, by `<metric>/human_label/<labeller>` each.
 */
export function withHumanLabelColumns(
  columns: readonly string[],
  metrics: readonly string[],
  runJudges: readonly string[] = [],
  labellers: ReadonlyMap<string, readonly string[]> = new Map(),
): string[] {
  const labelColumns = (metric: string) => [
    humanLabelColumn(metric),
    ...(labellers.get(metric) ?? []).map((labeller) => personLabelColumn(metric, labeller)),
  ];
  const labelled = labelledExportMetrics(metrics, runJudges);
  const out: string[] = [];
  const pending = new Set(labelled);
  columns.forEach((column, index) => {
    out.push(column);
    for (const metric of pending) {
      const next = columns[index + 1];
      if (column.startsWith(`${metric}/`) && !(next?.startsWith(`${metric}/`) ?? false)) {
        out.push(...labelColumns(metric));
        pending.delete(metric);
      }
    }
  });
  // A metric with no columns of its own in the record still gets its label column, at the end.
  for (const metric of pending) out.push(...labelColumns(metric));
  return out;
}

/**
 * One result record with its row's labels in the order withHumanLabelColumns gives (null where unlabelled):
 * the gold labels, and each person's (`people`, their labelledBy the labeller) for the metrics in `labellers`.
 */
export function withHumanLabels(
  record: Record<string, unknown>,
  metrics: readonly string[],
  labels: readonly StoredLabel[],
  runJudges: readonly string[] = [],
  people: { labellers: ReadonlyMap<string, readonly string[]>; labels: readonly StoredLabel[] } = {
    labellers: new Map(),
    labels: [],
  },
): Record<string, unknown> {
  const cells = {
    ...humanLabelCells(labels),
    ...humanLabelCells(people.labels, (label) => personLabelColumn(label.metric, label.labelledBy ?? "")),
  };
  const columns = withHumanLabelColumns(Object.keys(record), metrics, runJudges, people.labellers);
  return Object.fromEntries(
    columns.map((column) => [column, column in record ? record[column] : (cells[column] ?? null)]),
  );
}

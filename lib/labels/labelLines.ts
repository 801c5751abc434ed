import { labellableMetrics } from "./labelKinds";

/**
 * The drill-down's label lines: their order and their keys. A catalogue
 * metric keeps one key on every run (its place in the catalogue: correctness
 * is always 1, groundedness 3), whatever else the run judged; a run's own
 * judges (custom, G-Eval) take the keys after the catalogue's, by name. Keys
 * are 1–9, then letters (never j / k / n / y, which move between rows and
 * label). A per-chunk metric's key picks its first chunk; with a line picked,
 * ↑ / ↓ reach every other line.
 */
export const LINE_KEYS: readonly string[] = [..."123456789", ..."abcdefghilmopqrstuvwxz"];

let catalogue: Map<string, number> | null = null;

function catalogueSlot(metric: string): number | undefined {
  catalogue ??= new Map(labellableMetrics().map((entry, index) => [entry.metric, index]));
  return catalogue.get(metric);
}

type Line = { metric: string; chunkPosition: number | null };

/** Sorts label lines by the catalogue's metric order, then a run's own judges by name, then chunk. */
export function compareLabelLines(a: Line, b: Line): number {
  const place = (metric: string) => catalogueSlot(metric) ?? Number.MAX_SAFE_INTEGER;
  return (
    place(a.metric) - place(b.metric) ||
    (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0) ||
    (a.chunkPosition ?? -1) - (b.chunkPosition ?? -1)
  );
}

/** The key of each line (in compareLabelLines order): a metric's first line takes its slot's key, the rest none. */
export function labelLineKeys(sorted: readonly Line[]): (string | null)[] {
  const ownJudges = [...new Set(sorted.map((line) => line.metric).filter((m) => catalogueSlot(m) === undefined))];
  const slotOf = (metric: string) => catalogueSlot(metric) ?? (catalogue?.size ?? 0) + ownJudges.indexOf(metric);
  return sorted.map((line, index) =>
    index > 0 && sorted[index - 1].metric === line.metric ? null : (LINE_KEYS[slotOf(line.metric)] ?? null),
  );
}
